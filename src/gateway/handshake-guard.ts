import type { EventEmitter } from 'node:events';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Duplex } from 'node:stream';
import { buildErrorEnvelope } from '../errors';
import type { HandshakeVerdict } from './address-limits';

/**
 * Decides every new realtime handshake (a WebSocket upgrade or a polling open under `path`, no
 * `sid`) before engine.io sees it: an address that ignores its refusals is answered 429 with the
 * error envelope and the connection closed, before engine.io parses the URL, before any WebSocket,
 * engine or socket.io state exists, and without a log line. A flood from one address then costs the
 * API process its TCP accept, the HTTP header parse and one write. Other verdicts are remembered
 * for engine.io's allowRequest (`verdictOf`), so each handshake takes one token.
 */
export function guardHandshakes(server: EventEmitter, path: string, decide: (req: IncomingMessage) => HandshakeVerdict): { verdictOf(req: IncomingMessage): HandshakeVerdict | undefined } {
  const verdicts = new WeakMap<IncomingMessage, HandshakeVerdict>();
  const isHandshake = (req: IncomingMessage) => {
    const url = req.url ?? '';
    return url.startsWith(path) && url.includes('EIO=') && !url.includes('sid=');
  };
  /** The verdict of a handshake, or the cut's answer (envelope JSON) when it is cut. */
  const judge = (req: IncomingMessage): string | undefined => {
    if (!isHandshake(req)) return undefined;
    const verdict = decide(req);
    if (verdict.kind !== 'cut') {
      verdicts.set(req, verdict);
      return undefined;
    }
    return JSON.stringify(buildErrorEnvelope({ code: 'RATE_LIMITED', message: verdict.message, correlationId: 'unknown', path }));
  };

  const upgrades = server.listeners('upgrade') as ((req: IncomingMessage, socket: Duplex, head: Buffer) => void)[];
  server.removeAllListeners('upgrade');
  server.on('upgrade', (req: IncomingMessage, socket: Duplex, head: Buffer) => {
    const cut = judge(req);
    if (cut === undefined) return void upgrades.forEach((listener) => listener.call(server, req, socket, head));
    socket.on('error', () => undefined); // the peer may be gone already
    socket.write(`HTTP/1.1 429 Too Many Requests\r\nConnection: close\r\nRetry-After: 1\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(cut)}\r\n\r\n${cut}`);
    socket.destroy();
  });

  const requests = server.listeners('request') as ((req: IncomingMessage, res: ServerResponse) => void)[];
  server.removeAllListeners('request');
  server.on('request', (req: IncomingMessage, res: ServerResponse) => {
    const cut = judge(req);
    if (cut === undefined) return void requests.forEach((listener) => listener.call(server, req, res));
    res.writeHead(429, { 'content-type': 'application/json', 'retry-after': '1', connection: 'close' }).end(cut);
  });

  return { verdictOf: (req) => verdicts.get(req) };
}
