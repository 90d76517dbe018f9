/**
 * The quote load's client: one keep-alive TCP connection per lane, one request in flight, the
 * answer cut by its Content-Length. The load generator shares the two cores with the service it
 * measures; `node:http`'s request and response objects cost it about as much CPU per request as
 * the API's quote route, which a raw socket does not.
 */
import { connect, type Socket } from 'node:net';

export interface RawAnswer {
  status: number;
  body: string;
}

const HEAD_END = Buffer.from('\r\n\r\n');

export class RawHttpLane {
  private buffer: Buffer = Buffer.alloc(0);
  private waiting: { resolve: (answer: RawAnswer) => void; reject: (error: Error) => void } | undefined;

  private constructor(private readonly socket: Socket, private readonly host: string) {
    socket.setNoDelay(true);
    socket.on('data', (chunk: Buffer) => this.take(chunk));
    socket.on('error', (error) => this.fail(error));
    socket.on('close', () => this.fail(new Error('connection closed')));
  }

  static open(url: string): Promise<RawHttpLane> {
    const { hostname, port } = new URL(url);
    return new Promise((resolve, reject) => {
      const socket = connect(Number(port), hostname, () => resolve(new RawHttpLane(socket, `${hostname}:${port}`)));
      socket.once('error', reject);
    });
  }

  /** `head`: extra header lines, each ending in CRLF (e.g. `Authorization: Bearer ...\r\n`). */
  post(path: string, body: string, head = ''): Promise<RawAnswer> {
    if (this.waiting) return Promise.reject(new Error('one request at a time per lane'));
    if (this.socket.destroyed) return Promise.reject(new Error('connection closed'));
    return new Promise((resolve, reject) => {
      this.waiting = { resolve, reject };
      this.socket.write(`POST ${path} HTTP/1.1\r\nHost: ${this.host}\r\n${head}Content-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`);
    });
  }

  /** The server closed the connection (e.g. its keep-alive timeout while idle): open a new lane. */
  get closed(): boolean {
    return this.socket.destroyed;
  }

  close(): void {
    this.socket.destroy();
  }

  private take(chunk: Buffer): void {
    this.buffer = this.buffer.length === 0 ? chunk : Buffer.concat([this.buffer, chunk]);
    const headEnd = this.buffer.indexOf(HEAD_END);
    if (headEnd < 0) return;
    const head = this.buffer.subarray(0, headEnd).toString('latin1');
    const length = /\r\ncontent-length:\s*(\d+)/i.exec(head);
    if (!length) return this.fail(new Error(`answer without Content-Length: ${head.slice(0, 200)}`));
    const end = headEnd + HEAD_END.length + Number(length[1]);
    if (this.buffer.length < end) return;
    const answer = { status: Number(head.slice(9, 12)), body: this.buffer.subarray(headEnd + HEAD_END.length, end).toString('utf8') };
    this.buffer = this.buffer.subarray(end);
    const waiting = this.waiting;
    this.waiting = undefined;
    waiting?.resolve(answer);
  }

  private fail(error: Error): void {
    const waiting = this.waiting;
    this.waiting = undefined;
    waiting?.reject(error);
  }
}
