/**
 * Candles of settled trades, in YES terms: pure arithmetic, no I/O. A candle is kept as its
 * stored row (CandleRow) and folded a write's trades at a time, in any order: `open` and `close` keep
 * the trade with the earliest and the latest (time, trade number) key, so trades settled out of
 * match order still give the candle their match order.
 */
export const CANDLE_INTERVALS = { '1m': 60, '5m': 300, '1h': 3_600, '1d': 86_400 } as const;
export type CandleInterval = keyof typeof CANDLE_INTERVALS;
/** A settled trade as candles need it: YES price in ticks, size in base units, match time. */
export interface CandleTrade {
  tradeId: string;
  chainId: number;
  conditionId: string;
  /** YES price, ticks 1..100. */
  yesTicks: number;
  sizeUnits: bigint;
  /** Match time, unix ms. */
  atMs: number;
}

export interface CandleRow {
  _id: string;
  chain_id: number;
  condition_id: string;
  interval: CandleInterval;
  /** Interval start, unix seconds. */
  t: number;
  open: number;
  high: number;
  low: number;
  close: number;
  /** Base units, decimal string. */
  volume_units: string;
  /** Sort keys of the trades behind open and close (tradeKeyOf). */
  open_key: string;
  close_key: string;
  /**
   * Numbers of the trades folded in, as sorted disjoint inclusive ranges: trades are numbered in
   * match order per market and nearly all confirm, so a candle's set stays a few ranges however
   * many trades it holds, and a retried write is recognised however late it comes. Stored flat,
   * `[from, to, from, to, ...]`: the store takes no nested arrays.
   */
  applied: number[];
  /** Trade ids of rows written before `applied` (read, never written). */
  recent?: string[];
  /** Optimistic-concurrency version: a write replaces exactly the row it read. */
  version: number;
}

export function bucketStart(atMs: number, interval: CandleInterval): number {
  const seconds = CANDLE_INTERVALS[interval];
  return Math.floor(atMs / 1000 / seconds) * seconds;
}

export function candleIdOf(chainId: number, conditionId: string, interval: CandleInterval, t: number): string {
  return `${chainId}|${conditionId}|${interval}|${t}`;
}

/** The trade's number in its market: trade ids end in `:{n}` (src/matching/market-ids.ts). */
export function tradeNumberOf(tradeId: string): number {
  const n = Number(tradeId.slice(tradeId.lastIndexOf(':') + 1));
  if (!Number.isSafeInteger(n) || n < 0) throw new Error(`trade id ${tradeId} does not end in its number`);
  return n;
}

/** Time first, then the trade's number in its market, both zero-padded to sort as strings. */
export function tradeKeyOf(trade: CandleTrade): string {
  return `${String(trade.atMs).padStart(15, '0')}|${String(tradeNumberOf(trade.tradeId)).padStart(15, '0')}|${trade.tradeId}`;
}

export function hasApplied(ranges: readonly [number, number][], n: number): boolean {
  let lo = 0;
  let hi = ranges.length - 1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    const [a, b] = ranges[mid];
    if (n < a) hi = mid - 1;
    else if (n > b) lo = mid + 1;
    else return true;
  }
  return false;
}

/** `ranges` with `n` added, adjacent ranges merged. */
export function withApplied(ranges: readonly [number, number][], n: number): [number, number][] {
  const out: [number, number][] = [];
  let placed = false;
  for (const [a, b] of ranges) {
    if (!placed && n < a) {
      out.push([n, n]);
      placed = true;
    }
    out.push([a, b]);
  }
  if (!placed) out.push([n, n]);
  const merged: [number, number][] = [];
  for (const [a, b] of out) {
    const last = merged[merged.length - 1];
    if (last && a <= last[1] + 1) last[1] = Math.max(last[1], b);
    else merged.push([a, b]);
  }
  return merged;
}

/** A row's applied set as ranges, with the ids of a row written before ranges existed. */
function appliedOf(row: CandleRow): [number, number][] {
  const flat = row.applied ?? [];
  let ranges: [number, number][] = [];
  for (let i = 0; i + 1 < flat.length; i += 2) ranges.push([flat[i], flat[i + 1]]);
  for (const id of row.recent ?? []) ranges = withApplied(ranges, tradeNumberOf(id));
  return ranges;
}

/**
 * The row with `trades` (all of this row's market, interval and start) folded in, or null when
 * the row already counts every one of them.
 */
export function foldTrades(row: CandleRow | null, trades: readonly CandleTrade[], interval: CandleInterval): CandleRow | null {
  let next: (Omit<CandleRow, 'applied'> & { applied: [number, number][] }) | null = row ? { ...row, applied: appliedOf(row) } : null;
  let changed = false;
  for (const trade of trades) {
    const n = tradeNumberOf(trade.tradeId);
    const key = tradeKeyOf(trade);
    const p = trade.yesTicks;
    if (!next) {
      const t = bucketStart(trade.atMs, interval);
      next = {
        _id: candleIdOf(trade.chainId, trade.conditionId, interval, t), chain_id: trade.chainId, condition_id: trade.conditionId, interval, t,
        open: p, high: p, low: p, close: p, volume_units: trade.sizeUnits.toString(), open_key: key, close_key: key, applied: [[n, n]], version: 0,
      };
      changed = true;
      continue;
    }
    if (hasApplied(next.applied, n)) continue;
    next = {
      ...next,
      open: key < next.open_key ? p : next.open,
      open_key: key < next.open_key ? key : next.open_key,
      close: key > next.close_key ? p : next.close,
      close_key: key > next.close_key ? key : next.close_key,
      high: Math.max(next.high, p),
      low: Math.min(next.low, p),
      volume_units: (BigInt(next.volume_units) + trade.sizeUnits).toString(),
      applied: withApplied(next.applied, n),
    };
    changed = true;
  }
  if (!next || !changed) return null;
  const { recent: _legacy, applied, ...written } = next;
  return { ...written, applied: applied.flat(), version: (row?.version ?? 0) + 1 };
}
