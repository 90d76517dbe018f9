/**
 * Engine benchmark: the predex engine beside the npm package nodejs-order-book on one seeded stream.
 * Rounds are interleaved (ours, peer, ours, peer, ...) after one warm-up round each; medians are
 * reported. Run: npm run bench:engine [-- --ops 200000 --rounds 5 --seed 42]
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { OrderBook, SelfTradePreventionMode, Side, type LimitOrderOptions } from 'nodejs-order-book';
import { Engine } from '../src/engine';
import { LOT_UNITS, makeStream, type StreamOp } from './engine-stream';

function arg(name: string, fallback: number): number {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? Number(process.argv[i + 1]) : fallback;
}

const OPS = arg('ops', 200_000);
const ROUNDS = arg('rounds', 5);
const SEED = arg('seed', 42);

interface RoundResult { ms: number; trades: number; depth: string }

function runOurs(ops: StreamOp[]): RoundResult {
  const engine = new Engine({ marketId: 'bench' });
  let trades = 0;
  const start = performance.now();
  for (let i = 0; i < ops.length; i++) {
    const op = ops[i];
    const now = 1_000 + (i >> 10);
    const events = op.kind === 'place' ? engine.place(op.order, now) : engine.cancel(op.hash, now);
    for (const e of events) if (e.type === 'TRADE') trades += 1;
  }
  const ms = performance.now() - start;
  const { bids, asks } = engine.depth(500);
  const fmt = (levels: { price: number; remaining: bigint }[]) => levels.map((l) => `${l.price}:${l.remaining / LOT_UNITS}`).join(',');
  return { ms, trades, depth: `${fmt(bids)}|${fmt(asks)}` };
}

/** Same operations in the peer's API: limit GTC, market as IOC limit at the worst price (a market order with protection), cancel; STP expire-maker like ours. */
function runPeer(ops: StreamOp[]): RoundResult {
  const book = new OrderBook();
  let trades = 0;
  const start = performance.now();
  for (const op of ops) {
    if (op.kind === 'cancel') {
      book.cancel(op.hash);
      continue;
    }
    const result = book.limit({
      id: op.order.hash, side: op.bookSide === 'bid' ? Side.BUY : Side.SELL, size: op.lots, price: op.yesPrice,
      timeInForce: (op.order.orderType === 'MARKET' ? 'IOC' : 'GTC') as LimitOrderOptions['timeInForce'], // enum not exported at runtime
      accountId: op.account, stpMode: SelfTradePreventionMode.EXPIRE_MAKER,
    });
    trades += result.done.length + (result.partial && result.partialQuantityProcessed > 0 ? 1 : 0);
  }
  const ms = performance.now() - start;
  const [asks, bids] = book.depth();
  const fmt = (levels: [number, number][]) => levels.map(([p, v]) => `${p}:${v}`).join(',');
  return { ms, trades, depth: `${fmt([...bids].sort((a, b) => b[0] - a[0]))}|${fmt([...asks].sort((a, b) => a[0] - b[0]))}` };
}

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
}

function main(): void {
  const { ops, stats } = makeStream(OPS, SEED);
  runOurs(ops);
  runPeer(ops);
  const ours: RoundResult[] = [];
  const peer: RoundResult[] = [];
  for (let r = 0; r < ROUNDS; r++) {
    ours.push(runOurs(ops));
    peer.push(runPeer(ops));
  }
  const oursMs = median(ours.map((r) => r.ms));
  const peerMs = median(peer.map((r) => r.ms));
  const ordersPerS = Math.round((OPS / oursMs) * 1000);
  const peerOrdersPerS = Math.round((OPS / peerMs) * 1000);
  const sameBook = ours[0].depth === peer[0].depth;
  const result = {
    benchmark: 'engine', node: process.version, seed: SEED, rounds: ROUNDS, stream_size: OPS, stream: stats,
    orders_per_s: ordersPerS, peer_orders_per_s: peerOrdersPerS, ratio: Number((ordersPerS / peerOrdersPerS).toFixed(3)),
    median_ms: { engine: Number(oursMs.toFixed(1)), peer: Number(peerMs.toFixed(1)) },
    rounds_ms: { engine: ours.map((r) => Number(r.ms.toFixed(1))), peer: peer.map((r) => Number(r.ms.toFixed(1))) },
    engine_trades: ours[0].trades, final_book_identical: sameBook,
    peer: 'nodejs-order-book 10.1.1 (number sizes, no events, no fees, one outcome)',
  };
  console.table([
    { engine: 'predex engine', 'median ms': result.median_ms.engine, 'ops/s': ordersPerS },
    { engine: 'nodejs-order-book', 'median ms': result.median_ms.peer, 'ops/s': peerOrdersPerS },
  ]);
  console.log(`stream ${OPS} ops (${stats.limits} limit, ${stats.markets} market, ${stats.cancels} cancel), ${ROUNDS} rounds, ratio ${result.ratio}, final books identical: ${sameBook}`);
  const dir = join(__dirname, 'results');
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, 'engine.json'), `${JSON.stringify(result, null, 2)}\n`);
}

main();
