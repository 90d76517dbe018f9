/**
 * The `candles` collection, kept as trades settle: each CONFIRMED trade is folded into its 1m, 5m,
 * 1h and 1d candles by read, fold, write-if-unchanged (`version`), so concurrent settlements of
 * one market never lose a trade, and a retried write never counts one twice (`recent`).
 * Rows are found by `_id` only (market, interval, start): the primary key, on every store.
 */
import type { mongo } from 'mongoose';
import { CANDLE_INTERVALS, candleIdOf, foldTrade, type CandleInterval, type CandleRow, type CandleTrade } from './candle-math';

export const CANDLES = 'candles';
const MAX_ATTEMPTS = 20;

export function candlesOf(db: mongo.Db): mongo.Collection<CandleRow> {
  return db.collection<CandleRow>(CANDLES);
}

/** Folds every trade into each interval's candle. */
export async function applyTrades(candles: mongo.Collection<CandleRow>, trades: CandleTrade[]): Promise<void> {
  for (const trade of trades) {
    await Promise.all((Object.keys(CANDLE_INTERVALS) as CandleInterval[]).map((interval) => applyOne(candles, trade, interval)));
  }
}

async function applyOne(candles: mongo.Collection<CandleRow>, trade: CandleTrade, interval: CandleInterval): Promise<void> {
  const id = candleIdOf(trade.chainId, trade.conditionId, interval, Math.floor(trade.atMs / 1000 / CANDLE_INTERVALS[interval]) * CANDLE_INTERVALS[interval]);
  for (let attempt = 0; attempt < MAX_ATTEMPTS; attempt++) {
    const row = await candles.findOne({ _id: id });
    const next = foldTrade(row, trade, interval);
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
