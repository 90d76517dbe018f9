/**
 * The `candles` collection, kept as trades settle: a write's CONFIRMED trades are grouped by the
 * 1m, 5m, 1h and 1d candle they fall in, and each candle takes its group in one read, fold,
 * write-if-unchanged (`version`): concurrent settlements of one market never lose a trade, a
 * retried write never counts one twice (`applied`), and a batch costs a read and a write per
 * candle, not per trade.
 * Rows are found by `_id` only (market, interval, start): the primary key, on every store.
 */
import type { mongo } from 'mongoose';
import { CANDLE_INTERVALS, bucketStart, candleIdOf, foldTrades, type CandleInterval, type CandleRow, type CandleTrade } from './candle-math';

export const CANDLES = 'candles';
const MAX_ATTEMPTS = 20;

export function candlesOf(db: mongo.Db): mongo.Collection<CandleRow> {
  return db.collection<CandleRow>(CANDLES);
}

/** Folds every trade into each interval's candle. */
export async function applyTrades(candles: mongo.Collection<CandleRow>, trades: CandleTrade[]): Promise<void> {
  const groups = new Map<string, { interval: CandleInterval; trades: CandleTrade[] }>();
  for (const trade of trades) {
    for (const interval of Object.keys(CANDLE_INTERVALS) as CandleInterval[]) {
      const id = candleIdOf(trade.chainId, trade.conditionId, interval, bucketStart(trade.atMs, interval));
      const group = groups.get(id) ?? { interval, trades: [] };
      group.trades.push(trade);
      groups.set(id, group);
    }
  }
  await Promise.all([...groups].map(([id, group]) => applyGroup(candles, id, group.interval, group.trades)));
}

async function applyGroup(candles: mongo.Collection<CandleRow>, id: string, interval: CandleInterval, trades: CandleTrade[]): Promise<void> {
  for (let attempt = 0; attempt < MAX_ATTEMPTS; attempt++) {
    const row = await candles.findOne({ _id: id });
    const next = foldTrades(row, trades, interval);
    if (!next) return;
    if (!row) {
      const inserted = await candles.insertOne(next).then(() => true, (error: unknown) => {
        if ((error as { code?: number }).code === 11000) return false;
        throw error;
      });
      if (inserted) return;
      continue;
    }
    const { matchedCount } = await candles.replaceOne({ _id: id, version: row.version }, next);
    if (matchedCount === 1) return;
  }
  throw new Error(`candle ${id}: still overtaken after ${MAX_ATTEMPTS} attempts`);
}
