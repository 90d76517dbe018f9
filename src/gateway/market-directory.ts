import type { Connection } from 'mongoose';
import { createMarketModel } from '../db/models';
import { readOnce } from '../db/read-once';

export interface MarketRef {
  chain_id: number;
  condition_id: string;
}

/** What the gateway needs to know about a market: that it exists, and its token decimals. */
export interface MarketDirectory {
  find(market: MarketRef): Promise<{ decimals: number } | null>;
}

/** Reads the `markets` collection; markets are never deleted, so found ones are kept (`readOnce`). */
export function createMarketDirectory(db: Connection): MarketDirectory {
  const markets = createMarketModel(db);
  return {
    find: readOnce(
      (market: MarketRef) => `${market.chain_id}-${market.condition_id}`,
      (market: MarketRef) => markets.findOne({ chain_id: market.chain_id, condition_id: market.condition_id }, { tokens: 1 }).lean()
        .then((row) => (row ? { decimals: row.tokens[0]?.decimals ?? 18 } : null)),
    ),
  };
}
