import type { HeartbeatStore } from '../src/heartbeat/beat-store';
import type { MatchingCollections } from '../src/matching/collections';
import type { MarketRef } from '../src/matching/market-ids';

/** What the dead-man switch reads and writes: the wallet's stored last beat, its end, its open orders. */
export function createHeartbeatActivities({ collections: c, heartbeats }: { collections: MatchingCollections; heartbeats: HeartbeatStore }) {
  return {
    /** The wallet's last heartbeat the API processes have written (ms since the epoch), or null. */
    async lastBeatOf(q: { wallet: string }): Promise<number | null> {
      return heartbeats.lastBeatOf(q.wallet);
    },
    /** Marks the wallet's run as ended (this clock): the API processes then arm a new one on the next beat. */
    async switchEnded(q: { wallet: string }): Promise<void> {
      await heartbeats.markEnded(q.wallet, Date.now());
    },
    /** A fresh run is armed: the wallet's last end is no longer news to the API processes. */
    async switchArmed(q: { wallet: string }): Promise<void> {
      await heartbeats.markArmed(q.wallet);
    },
    async openOrdersOfWallet(q: { wallet: string }): Promise<{ market: MarketRef; hashes: string[] }[]> {
      const rows = await c.orders.find(
        { wallet: q.wallet.toLowerCase(), status: { $in: ['OPEN', 'PARTIALLY_FILLED'] } },
        { projection: { order_hash: 1, chain_id: 1, condition_id: 1, market_key: 1 } },
      ).toArray();
      const byMarket = new Map<string, { market: MarketRef; hashes: string[] }>();
      for (const o of rows) {
        const group = byMarket.get(o.market_key) ?? { market: { chain_id: o.chain_id, condition_id: o.condition_id }, hashes: [] };
        group.hashes.push(o.order_hash);
        byMarket.set(o.market_key, group);
      }
      return [...byMarket.values()];
    },
  };
}

export type HeartbeatActivities = ReturnType<typeof createHeartbeatActivities>;
