/**
 * One client process of `npm run bench:ws`: holds socket.io connections to the API, each
 * subscribed to `book`, `ticker` and `trades` of one market, and reports what they receive.
 * Driven over the fork IPC channel by bench/ws.bench.ts:
 *   {type: 'target', connections}  ramp to that many connections (opening at most `rate`/s);
 *   {type: 'report'}               answer with the window's counts and latencies, then reset it.
 *
 * Delta latency, match to client: a market step publishes its book delta and then its ticker in
 * one push; the ticker's `timestamp` is the step's match time. A delta is timed against the ticker
 * that follows it on the same connection.
 */
import { io, Socket } from 'socket.io-client';

const [url, marketList, rateArg] = process.argv.slice(2);
const markets = marketList.split(',');
const openPerSecond = Number(rateArg ?? 500);

interface Window {
  messages: number;
  deltaMs: number[];
  refused: Record<string, number>;
  dropped: number;
}

const sockets: Socket[] = [];
let connected = 0;
let target = 0;
let window: Window = { messages: 0, deltaMs: [], refused: {}, dropped: 0 };
/** Latencies sampled per connection: every delta of 1 connection in `SAMPLE`, to bound this process's memory. */
const SAMPLE = 10;

function open(index: number): void {
  const condition_id = markets[index % markets.length];
  const socket = io(url, { path: '/v1/ws', transports: ['websocket'], reconnection: false, forceNew: true });
  const sampled = index % SAMPLE === 0;
  let lastDeltaAt = 0;
  socket.on('connect', () => {
    connected += 1;
    for (const channel of ['book', 'ticker', 'trades']) socket.emit('subscribe', { channel, condition_id });
  });
  socket.on('book', (m: { type: string }) => {
    window.messages += 1;
    if (m.type === 'delta') lastDeltaAt = Date.now();
  });
  socket.on('ticker', (m: { timestamp: string }) => {
    window.messages += 1;
    if (sampled && lastDeltaAt > 0) {
      window.deltaMs.push(lastDeltaAt - Date.parse(m.timestamp));
      lastDeltaAt = 0;
    }
  });
  socket.on('trades', () => (window.messages += 1));
  socket.on('connect_error', (error: Error & { data?: { code?: string } }) => {
    const code = error.data?.code ?? 'transport';
    window.refused[code] = (window.refused[code] ?? 0) + 1;
  });
  socket.on('disconnect', () => {
    connected -= 1;
    window.dropped += 1;
  });
  sockets.push(socket);
}

/** Opens connections toward `target`, `openPerSecond` at most. */
setInterval(() => {
  for (let i = 0; i < openPerSecond / 10 && sockets.length < target; i += 1) open(sockets.length);
}, 100);

process.on('message', (message: { type: string; connections?: number; offset?: number }) => {
  if (message.type === 'target') target = message.connections ?? 0;
  if (message.type === 'report') {
    process.send?.({ type: 'report', connected, opened: sockets.length, ...window, memoryMb: Math.round(process.memoryUsage().rss / 2 ** 20) });
    window = { messages: 0, deltaMs: [], refused: {}, dropped: 0 };
  }
  if (message.type === 'stop') {
    for (const socket of sockets) socket.close();
    setTimeout(() => process.exit(0), 200);
  }
});
process.on('disconnect', () => process.exit(0));
