/**
 * Candles of settled trades, in YES terms: pure arithmetic, no I/O. A candle is kept as its
 * stored row (CandleRow) and folded one trade at a time, in any order: `open` and `close` keep
 * the trade with the earliest and the latest (time, trade number) key, so trades settled out of
 * match order still give the candle their match order.
 */
export const CANDLE_INTERVALS = { '1m': 60, '5m': 300, '1h': 3_600, '1d': 86_400 } as const;
export type CandleInterval = keyof typeof CANDLE_INTERVALS;
/** Trade ids a row remembers as applied, so a retried write never counts a trade twice. */
export const RECENT_TRADES_KEPT = 512;

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
  /** Trade ids applied lately (at most RECENT_TRADES_KEPT, newest last). */
  recent: string[];
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

/** Time first, then the trade's number in its market (`{market}:{n}`), both zero-padded to sort as strings. */
export function tradeKeyOf(trade: CandleTrade): string {
  const n = Number(trade.tradeId.slice(trade.tradeId.lastIndexOf(':') + 1));
  return `${String(trade.atMs).padStart(15, '0')}|${String(Number.isSafeInteger(n) ? n : 0).padStart(15, '0')}|${trade.tradeId}`;
}

/** The row with `trade` folded in, or null when the row already counts it. */
export function foldTrade(row: CandleRow | null, trade: CandleTrade, interval: CandleInterval): CandleRow | null {
  const key = tradeKeyOf(trade);
  const p = trade.yesTicks;
  if (!row) {
    const t = bucketStart(trade.atMs, interval);
    return {
      _id: candleIdOf(trade.chainId, trade.conditionId, interval, t), chain_id: trade.chainId, condition_id: trade.conditionId, interval, t,
      open: p, high: p, low: p, close: p, volume_units: trade.sizeUnits.toString(), open_key: key, close_key: key, recent: [trade.tradeId], version: 1,
    };
  }
  if (row.recent.includes(trade.tradeId)) return null;
  return {
    ...row,
    open: key < row.open_key ? p : row.open,
    open_key: key < row.open_key ? key : row.open_key,
    close: key > row.close_key ? p : row.close,
    close_key: key > row.close_key ? key : row.close_key,
    high: Math.max(row.high, p),
    low: Math.min(row.low, p),
    volume_units: (BigInt(row.volume_units) + trade.sizeUnits).toString(),
    recent: [...row.recent, trade.tradeId].slice(-RECENT_TRADES_KEPT),
    version: row.version + 1,
  };
}
