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

/**
 * Reads the `markets` collection; markets are never deleted, so found ones are cached (as the
 * promise: lookups of a market not seen yet that arrive together share one read).
 */
export function createMarketDirectory(db: Connection): MarketDirectory {
  const markets = createMarketModel(db);
  const cache = new Map<string, Promise<{ decimals: number } | null>>();
  return {
    find(market) {
      const key = `${market.chain_id}-${market.condition_id}`;
      let found = cache.get(key);
      if (!found) {
        found = markets.findOne({ chain_id: market.chain_id, condition_id: market.condition_id }, { tokens: 1 }).lean()
          .then((row) => (row ? { decimals: row.tokens[0]?.decimals ?? 18 } : null));
        cache.set(key, found);
        // An unknown market (or a failed read) is asked again next time.
        void found.then((row) => row ?? cache.delete(key), () => cache.delete(key));
      }
      return found;
    },
  };
}
