/**
 * Load generator of the gateway's flood bench and tests, forked as its own process so the process
 * that serves the API or samples its latency does not also pay for the clients. Loopback only,
 * bounded in count and time. Driven over IPC (bench/flood-generator.ts):
 *   {type: 'start', mode: 'resubscribe', url, connections, condition_id, everyMs}
 *     opens the connections (socket.io clients; a refused one retries after 1 s), each subscribed
 *     to the market's book and subscribing again every everyMs;
 *   {type: 'start', mode: 'handshakes', url, perSecond}
 *     opens perSecond bare WebSocket handshakes a second (what a flooding script would send: the
 *     upgrade, then socket.io's namespace join), each closed once answered;
 *   {type: 'pause'} / {type: 'resume'}: stops and restarts the sending (held connections stay);
 *   {type: 'stop'}: answers with the counts and exits.
 * It says {type: 'ready'} once it runs.
 */
import { randomBytes } from 'node:crypto';
import { connect } from 'node:net';
import { io, Socket } from 'socket.io-client';

interface Start {
  type: 'start';
  mode: 'resubscribe' | 'handshakes';
  url: string;
  connections?: number;
  condition_id?: string;
  everyMs?: number;
  perSecond?: number;
}

const counts: Record<string, number> = {};
const count = (what: string) => (counts[what] = (counts[what] ?? 0) + 1);
let paused = false;
const stoppers: (() => void)[] = [];

function resubscribe({ url, connections = 0, condition_id, everyMs = 100 }: Start): void {
  const sockets = new Set<Socket>();
  const body = { channel: 'book', condition_id };
  const keep = (): void => {
    const socket = io(url, { path: '/v1/ws', transports: ['websocket'], reconnection: false, forceNew: true });
    sockets.add(socket);
    let timer: NodeJS.Timeout | undefined;
    socket.on('connect', () => {
      count('connected');
      timer = setInterval(() => {
        if (!paused) socket.emit('subscribe', body, (answer: { ok: boolean; error?: { code: string } }) => count(answer.ok ? 'acked' : `ack_${answer.error?.code}`));
      }, everyMs);
    });
    socket.on('book', () => count('book'));
    socket.on('gateway_error', (m: { code: string }) => count(`closed_${m.code}`));
    const retry = () => {
      clearInterval(timer);
      socket.close();
      sockets.delete(socket);
      const again = () => (paused ? setTimeout(again, 100) : keep());
      setTimeout(again, 1_000);
    };
    socket.on('connect_error', (error: Error & { data?: { code?: string } }) => {
      count(`refused_${error.data?.code ?? 'transport'}`);
      retry();
    });
    socket.on('disconnect', () => {
      count('disconnected');
      retry();
    });
  };
  for (let i = 0; i < connections; i += 1) keep();
  stoppers.push(() => {
    for (const socket of sockets) socket.removeAllListeners().close();
  });
}

/** One bare handshake: the upgrade request, the namespace join ("40"), then whatever answers first. */
function bareHandshake(host: string, port: number): Promise<string> {
  return new Promise((resolve) => {
    const socket = connect(port, host);
    let buffer = Buffer.alloc(0);
    let upgraded = false;
    const done = (what: string) => {
      socket.destroy();
      resolve(what);
    };
    socket.setTimeout(10_000, () => done('timeout'));
    socket.on('error', () => done('error'));
    socket.on('connect', () => {
      socket.write(`GET /v1/ws/?EIO=4&transport=websocket HTTP/1.1\r\nHost: ${host}:${port}\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n`
        + `Sec-WebSocket-Key: ${randomBytes(16).toString('base64')}\r\nSec-WebSocket-Version: 13\r\n\r\n`);
    });
    socket.on('data', (chunk: Buffer) => {
      buffer = Buffer.concat([buffer, chunk]);
      if (!upgraded) {
        const end = buffer.indexOf('\r\n\r\n');
        if (end < 0) return;
        if (!buffer.subarray(0, 12).toString().startsWith('HTTP/1.1 101')) return done(buffer.includes('RATE_LIMITED') ? 'cut_RATE_LIMITED' : 'http_error');
        upgraded = true;
        buffer = buffer.subarray(end + 4);
        // A masked text frame "40" (mask key 0: the payload goes as is).
        socket.write(Buffer.from([0x81, 0x82, 0, 0, 0, 0, 0x34, 0x30]));
      }
      while (buffer.length >= 2) {
        const short = buffer[1] & 0x7f;
        const offset = short === 126 ? 4 : short === 127 ? 10 : 2;
        if (buffer.length < offset) return;
        const length = short === 126 ? buffer.readUInt16BE(2) : short === 127 ? Number(buffer.readBigUInt64BE(2)) : short;
        if (buffer.length < offset + length) return;
        const text = buffer.subarray(offset, offset + length).toString();
        buffer = buffer.subarray(offset + length);
        if (text.startsWith('40')) return done('connected');
        if (text.startsWith('44')) return done(text.includes('RATE_LIMITED') ? 'refused_RATE_LIMITED' : 'refused_other');
      }
    });
  });
}

function handshakes({ url, perSecond = 0 }: Start): void {
  const { hostname, port } = new URL(url);
  let inFlight = 0;
  let owed = 0;
  let last = Date.now();
  const timer = setInterval(() => {
    const now = Date.now();
    owed += ((now - last) * perSecond) / 1000;
    last = now;
    if (paused) return void (owed = 0);
    for (; owed >= 1; owed -= 1) {
      if (inFlight >= 1_000) {
        count('skipped');
        continue;
      }
      inFlight += 1;
      count('attempted');
      void bareHandshake(hostname, Number(port)).then((what) => {
        inFlight -= 1;
        count(what);
      });
    }
  }, 10);
  stoppers.push(() => clearInterval(timer));
}

process.on('message', (message: Start | { type: 'pause' | 'resume' | 'stop' }) => {
  if (message.type === 'start') (message.mode === 'resubscribe' ? resubscribe : handshakes)(message);
  if (message.type === 'pause') paused = true;
  if (message.type === 'resume') paused = false;
  if (message.type === 'stop') {
    for (const stop of stoppers) stop();
    process.send?.(counts, () => process.exit(0));
  }
});
process.on('disconnect', () => process.exit(0));
process.send?.({ type: 'ready' });
