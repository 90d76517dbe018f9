/**
 * Plain-JSON snapshot of an engine: counters and the resting orders in arrival order, bigints as
 * decimal strings. Restoring re-appends the orders in that order, which rebuilds every level's FIFO.
 */
import { canTrade, LOT_SIZE } from './amounts';
import type { BookOrder } from './book-order';
import type { Engine } from './engine';
import { EngineError } from './engine-error';
import { toBookOrder, validateOrder } from './order-rules';
import type { EngineOrder, OrderType, Outcome, Side } from './types';

export const SNAPSHOT_VERSION = 1;

export interface SnapshotOrder {
  hash: string;
  maker: string;
  taker: string;
  side: Side;
  outcome: Outcome;
  orderType: OrderType;
  price: number;
  size: string;
  makerAmount: string;
  takerAmount: string;
  expiration: number;
  feeRateBps: number;
  remaining: string;
  filled: string;
  arrival: number;
}

export interface EngineSnapshot {
  version: number;
  marketId: string;
  /** Last event seq. */
  seq: number;
  /** Last book seq (one per call that changed a level). */
  bookSeq: number;
  tradeSeq: number;
  /** Last arrival number handed out. */
  arrival: number;
  /** Resting orders, ascending arrival. */
  orders: SnapshotOrder[];
}

export function toSnapshot(engine: Engine): EngineSnapshot {
  const orders = [...engine.orders.values()].sort((a, b) => a.arrival - b.arrival).map((o): SnapshotOrder => ({
    hash: o.hash, maker: o.maker, taker: o.taker, side: o.side, outcome: o.outcome, orderType: o.orderType, price: o.price,
    size: o.size.toString(), makerAmount: o.makerAmount.toString(), takerAmount: o.takerAmount.toString(),
    expiration: o.expiration, feeRateBps: o.feeRateBps, remaining: o.remaining.toString(), filled: o.filled.toString(),
    arrival: o.arrival,
  }));
  return { version: SNAPSHOT_VERSION, marketId: engine.marketId, ...engine.counters, orders };
}

export function fromSnapshot(snapshot: EngineSnapshot, create: (marketId: string) => Engine): Engine {
  const bad = (message: string, cause?: unknown): never => { throw new EngineError('INVALID_SNAPSHOT', message, undefined, { cause }); };
  if (typeof snapshot !== 'object' || snapshot === null || snapshot.version !== SNAPSHOT_VERSION) bad('unknown snapshot version');
  for (const key of ['seq', 'bookSeq', 'tradeSeq', 'arrival'] as const) {
    if (!Number.isSafeInteger(snapshot[key]) || snapshot[key] < 0) bad(`${key} must be a non-negative integer`);
  }
  if (!Array.isArray(snapshot.orders)) bad('orders must be an array');
  const engine = create(snapshot.marketId);
  engine.counters = { seq: snapshot.seq, bookSeq: snapshot.bookSeq, tradeSeq: snapshot.tradeSeq, arrival: snapshot.arrival };
  let lastArrival = 0;
  for (const s of snapshot.orders) {
    const o = restoreOrder(s, bad);
    if (o.arrival <= lastArrival || o.arrival > snapshot.arrival) bad(`order ${o.hash}: arrival out of order`);
    if (engine.orders.has(o.hash)) bad(`order ${o.hash}: duplicate`);
    lastArrival = o.arrival;
    (o.bookSide === 'bid' ? engine.bids : engine.asks).add(o);
    engine.orders.set(o.hash, o);
    if (o.expiration !== 0) engine.expiries.push({ expiration: o.expiration, arrival: o.arrival, hash: o.hash });
  }
  try {
    engine.assertInvariants();
  } catch (error) {
    bad('snapshot breaks the engine invariants', error);
  }
  return engine;
}

function restoreOrder(s: SnapshotOrder, bad: (message: string, cause?: unknown) => never): BookOrder {
  let signed: EngineOrder;
  let remaining: bigint;
  let filled: bigint;
  try {
    signed = {
      hash: s.hash, maker: s.maker, taker: s.taker, side: s.side, outcome: s.outcome, orderType: s.orderType, price: s.price,
      size: BigInt(s.size), makerAmount: BigInt(s.makerAmount), takerAmount: BigInt(s.takerAmount),
      expiration: s.expiration, feeRateBps: s.feeRateBps,
    };
    validateOrder(signed);
    remaining = BigInt(s.remaining);
    filled = BigInt(s.filled);
  } catch (error) {
    return bad(`order ${String(s?.hash)}: malformed`, error);
  }
  if (!Number.isSafeInteger(s.arrival) || s.arrival <= 0) bad(`order ${s.hash}: bad arrival`);
  if (remaining <= 0n || filled < 0n || remaining + filled !== signed.size) bad(`order ${s.hash}: remaining + filled must equal size`);
  if (!canTrade(remaining) || filled % LOT_SIZE !== 0n) bad(`order ${s.hash}: a resting order has at least one lot left and whole lots filled`);
  if (signed.orderType === 'MARKET' || signed.orderType === 'FOK') bad(`order ${s.hash}: ${signed.orderType} orders never rest`);
  const o = toBookOrder(signed, s.arrival);
  o.remaining = remaining;
  o.filled = filled;
  o.status = filled === 0n ? 'OPEN' : 'PARTIALLY_FILLED';
  return o;
}
