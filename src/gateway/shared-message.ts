import type { Socket } from 'socket.io';

/** socket.io's EVENT packet type (socket.io-parser PacketType.EVENT). */
const EVENT = 2;

interface EngineWriter {
  writeToEngine(packets: unknown[], options: { preEncoded: true }): void;
}

/**
 * One outbound message written to many sockets, encoded once (as socket.io's own broadcast
 * does): a delta fanned out to 10,000 subscribers costs one JSON encoding, not 10,000.
 */
export class SharedMessage {
  private packets: unknown[] | undefined;

  constructor(
    readonly name: string,
    readonly payload: unknown,
  ) {}

  writeTo(socket: Socket): void {
    this.packets ??= socket.nsp.server.encoder.encode({ type: EVENT, nsp: socket.nsp.name, data: [this.name, this.payload] }) as unknown[];
    (socket.client as unknown as EngineWriter).writeToEngine(this.packets, { preEncoded: true });
  }
}
