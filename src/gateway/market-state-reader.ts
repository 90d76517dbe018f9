import type { Connection } from 'mongoose';
import { createTickerModel, type TickerRecord } from '../db/models';
import { tickerValues } from '../markets/ticker-math';
import { createBookSnapshotReader } from './book-snapshot';
import type { MarketState } from './market-feed';
import type { MarketRef } from './market-directory';

export type MarketStateReader = (market: MarketRef, decimals: number) => Promise<MarketState>;

/** Reads what a market feed is seeded with: the book (book-snapshot.ts) and the ticker as REST shows it. */
export function createMarketStateReader(db: Connection): MarketStateReader {
  const books = createBookSnapshotReader(db);
  const tickers = createTickerModel(db);
  return async (market, decimals) => {
    const [book, record] = await Promise.all([
      books.read(market, decimals),
      tickers.findOne({ chain_id: market.chain_id, condition_id: market.condition_id }).lean<TickerRecord>().exec(),
    ]);
    const ticker = record
      ? { condition_id: market.condition_id, chain_id: market.chain_id, ...tickerValues(record), timestamp: record.updated_at.toISOString() }
      : null;
    return { book, ticker };
  };
}
