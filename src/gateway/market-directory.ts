import type { Connection } from 'mongoose';
import { createMarketModel } from '../db/models';

export interface MarketRef {
  chain_id: number;
  condition_id: string;
}

/** What the gateway needs to know about a market: that it exists, and its token decimals. */
export interface MarketDirectory {
  find(market: MarketRef): Promise<{ decimals: number } | null>;
}

/** Reads the `markets` collection; markets are never deleted, so found ones are cached. */
export function createMarketDirectory(db: Connection): MarketDirectory {
  const markets = createMarketModel(db);
  const cache = new Map<string, { decimals: number }>();
  return {
    async find(market) {
      const key = `${market.chain_id}-${market.condition_id}`;
      const cached = cache.get(key);
      if (cached) return cached;
      const row = await markets.findOne({ chain_id: market.chain_id, condition_id: market.condition_id }, { tokens: 1 }).lean();
      if (!row) return null;
      const found = { decimals: row.tokens[0]?.decimals ?? 18 };
      cache.set(key, found);
      return found;
    },
  };
}
