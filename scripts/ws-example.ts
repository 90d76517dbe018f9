/**
 * Example realtime client: gets a WebSocket token with an API key pair, connects to /v1/ws,
 * subscribes to the private `user` channel and (with CONDITION_ID) to a market's book, ticker and
 * trades, and prints every event. Keeps a local book and resubscribes if it ever sees a seq gap.
 *
 *   PREDEX_URL=http://127.0.0.1:8080 PREDEX_API_KEY=… PREDEX_API_SECRET=… CONDITION_ID=0x… npx tsx scripts/ws-example.ts
 *
 * Without the key pair it connects publicly (market channels only).
 */
import { io } from 'socket.io-client';

const baseUrl = process.env.PREDEX_URL ?? 'http://127.0.0.1:8080';
const apiKey = process.env.PREDEX_API_KEY;
const apiSecret = process.env.PREDEX_API_SECRET;
const conditionId = process.env.CONDITION_ID;
const chainId = Number(process.env.CHAIN_ID ?? 56);

type Ack = { ok: true } | { ok: false; error: { code: string; message: string } };
type Level = { price: string; remainingSize: string };
type BookMessage =
  | { type: 'snapshot'; condition_id: string; seq: number; bids: Level[]; asks: Level[] }
  | { type: 'delta'; condition_id: string; seq: number; changes: { side: 'bid' | 'ask'; price: string; remainingSize: string }[] };

/** A fresh single-use token per (re)connect: tokens are consumed by the handshake. */
async function wsToken(): Promise<string> {
  const res = await fetch(`${baseUrl}/v1/auth/ws-token`, {
    method: 'POST',
    headers: { 'fs-api-key': apiKey ?? '', 'fs-api-secret': apiSecret ?? '' },
  });
  if (!res.ok) throw new Error(`POST /v1/auth/ws-token answered ${res.status}: ${await res.text()}`);
  return ((await res.json()) as { token: string }).token;
}

const authenticated = Boolean(apiKey && apiSecret);
const socket = io(baseUrl, {
  path: '/v1/ws',
  transports: ['websocket'],
  // A function, so that every reconnect fetches a new token instead of replaying a used one.
  auth: authenticated ? (cb) => void wsToken().then((token) => cb({ token }), (error: unknown) => { console.error(error); cb({}); }) : undefined,
});

const book = { seq: -1, bid: new Map<string, string>(), ask: new Map<string, string>() };

function subscribe(body: Record<string, unknown>): void {
  socket.emit('subscribe', body, (ack: Ack) => console.log('subscribe', body.channel, JSON.stringify(ack)));
}

function printBook(): void {
  const side = (m: Map<string, string>, dir: number) => [...m].sort((a, b) => dir * (Number(a[0]) - Number(b[0]))).slice(0, 5);
  console.log(`book seq ${book.seq}  bids ${JSON.stringify(side(book.bid, -1))}  asks ${JSON.stringify(side(book.ask, 1))}`);
}

socket.on('connect', () => {
  console.log(`connected (${authenticated ? 'authenticated' : 'public'}) as ${socket.id}`);
  if (authenticated) subscribe({ channel: 'user' });
  if (conditionId) {
    for (const channel of ['book', 'ticker', 'trades']) subscribe({ channel, condition_id: conditionId, chain_id: chainId });
  }
});
socket.on('connect_error', (error: Error & { data?: { code: string } }) => console.error('connect_error', error.data?.code ?? error.message));
socket.on('disconnect', (reason) => console.log('disconnected:', reason));
socket.on('gateway_error', (message: unknown) => console.error('gateway_error', JSON.stringify(message)));

socket.on('book', (message: BookMessage) => {
  if (message.type === 'snapshot') {
    book.seq = message.seq;
    book.bid = new Map(message.bids.map((l) => [l.price, l.remainingSize]));
    book.ask = new Map(message.asks.map((l) => [l.price, l.remainingSize]));
  } else {
    if (message.seq !== book.seq + 1) {
      console.warn(`book gap (have ${book.seq}, got ${message.seq}): resubscribing for a fresh snapshot`);
      subscribe({ channel: 'book', condition_id: message.condition_id, chain_id: chainId });
      return;
    }
    book.seq = message.seq;
    for (const c of message.changes) {
      if (c.remainingSize === '0') book[c.side].delete(c.price);
      else book[c.side].set(c.price, c.remainingSize);
    }
  }
  printBook();
});
socket.on('ticker', (ticker: unknown) => console.log('ticker', JSON.stringify(ticker)));
socket.on('trades', (trade: unknown) => console.log('trade', JSON.stringify(trade)));
socket.on('user', (event: { type: string }) => console.log('user', event.type, JSON.stringify(event)));

process.on('SIGINT', () => {
  socket.disconnect();
  process.exit(0);
});
