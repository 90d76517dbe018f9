/**
 * Seeded mixed add/cancel/match stream for the engine benchmark. Each operation is kept in YES terms
 * (book side + YES price) as well as in the signed order form, so the same stream can drive both the
 * predex engine and a single-book peer.
 */
import { signedAmounts, ZERO_ADDRESS, type EngineOrder, type Outcome, type Side } from '../src/engine';

/** 1 lot = 0.01 share at D = 18. */
export const LOT_UNITS = 10n ** 16n;

export type StreamOp =
  | { kind: 'place'; order: EngineOrder; bookSide: 'bid' | 'ask'; yesPrice: number; lots: number; account: string }
  | { kind: 'cancel'; hash: string };

export interface StreamStats {
  operations: number;
  limits: number;
  markets: number;
  cancels: number;
}

/** mulberry32: small, fast, deterministic. */
export function rng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/**
 * About 70% limit orders around a slowly drifting mid (a quarter of them crossing), 10% market
 * orders with a worst price a few ticks through the mid, 20% cancels of a recent order; half of the
 * orders are on the NO outcome; 500 accounts.
 */
export function makeStream(size: number, seed: number): { ops: StreamOp[]; stats: StreamStats } {
  const next = rng(seed);
  const int = (lo: number, hi: number) => lo + Math.floor(next() * (hi - lo + 1));
  const ops: StreamOp[] = [];
  const recent: string[] = [];
  const stats: StreamStats = { operations: size, limits: 0, markets: 0, cancels: 0 };
  let mid = 50;
  for (let i = 0; i < size; i++) {
    if (i % 1000 === 0) mid = Math.min(80, Math.max(20, mid + int(-2, 2)));
    const roll = next();
    if (roll < 0.2 && recent.length > 0) {
      ops.push({ kind: 'cancel', hash: recent[int(0, recent.length - 1)] });
      stats.cancels += 1;
      continue;
    }
    const isMarket = roll >= 0.9;
    const bid = next() < 0.5;
    const crossing = isMarket || next() < 0.25;
    const yesPrice = clamp(bid ? (crossing ? mid + int(0, 4) : mid - int(1, 8)) : (crossing ? mid - int(0, 4) : mid + int(1, 8)));
    const outcome: Outcome = next() < 0.5 ? 1 : 0;
    // bid = BUY YES or SELL NO; ask = SELL YES or BUY NO.
    const side: Side = (bid === (outcome === 1)) ? 'BUY' : 'SELL';
    const price = outcome === 1 ? yesPrice : 100 - yesPrice;
    const lots = int(1, 500);
    const size = BigInt(lots) * LOT_UNITS;
    const hash = `o${i}`;
    const account = `0x${int(1, 500).toString(16).padStart(40, '0')}`;
    const order: EngineOrder = {
      hash, maker: account, taker: ZERO_ADDRESS, side, outcome, orderType: isMarket ? 'MARKET' : 'LIMIT', price, size,
      ...signedAmounts(side, size, price), expiration: 0, feeRateBps: 100,
    };
    ops.push({ kind: 'place', order, bookSide: bid ? 'bid' : 'ask', yesPrice, lots, account });
    if (isMarket) stats.markets += 1;
    else {
      stats.limits += 1;
      recent.push(hash);
      if (recent.length > 2_000) recent.splice(0, recent.length - 2_000);
    }
  }
  return { ops, stats };
}

function clamp(yesPrice: number): number {
  return Math.min(99, Math.max(1, yesPrice));
}
