/**
 * Recovery of lost hand-offs: an order persisted with handoff PENDING whose `submit` never reached
 * the market workflow (the API died in between) is handed over again. The workflow skips orders it
 * already took, so re-sending is always safe. Runs in the worker process.
 */
import type { MarketMatcher } from '../contracts/market-matcher';
import type { Logger } from '../logging/logger';
import type { MatchingCollections } from '../matching/collections';

export interface HandoffSweeperOptions {
  collections: MatchingCollections;
  matcher: MarketMatcher;
  logger: Logger;
  /** Orders younger than this are still in their normal hand-off; default 2000 ms. */
  olderThanMs?: number;
  intervalMs?: number;
  /** Orders per sweep. */
  limit?: number;
}

export interface HandoffSweeper {
  /** One pass; resolves with the number of orders handed over again. */
  sweepOnce(): Promise<number>;
  stop(): Promise<void>;
}

export function startHandoffSweeper(options: HandoffSweeperOptions): HandoffSweeper {
  const { collections: c, matcher, logger } = options;
  const olderThanMs = options.olderThanMs ?? 2_000;
  let stopped = false;
  let running: Promise<unknown> = Promise.resolve();

  async function sweepOnce(): Promise<number> {
    const cutoff = new Date(Date.now() - olderThanMs);
    const rows = await c.orders
      .find({ handoff: 'PENDING', status: 'OPEN', created_at: { $lt: cutoff } }, { projection: { order_hash: 1, chain_id: 1, condition_id: 1, market_key: 1 } })
      .sort({ created_at: 1 })
      .limit(options.limit ?? 2_000)
      .toArray();
    const byMarket = new Map<string, { chain_id: number; condition_id: string; hashes: string[] }>();
    for (const o of rows) {
      const lane = byMarket.get(o.market_key) ?? { chain_id: o.chain_id, condition_id: o.condition_id, hashes: [] };
      lane.hashes.push(o.order_hash);
      byMarket.set(o.market_key, lane);
    }
    await Promise.all([...byMarket.values()].map(async (m) => {
      logger.warn({ market: `${m.chain_id}-${m.condition_id}`, orders: m.hashes.length }, 'handing over orders whose hand-off was lost');
      await matcher.submit({ chain_id: m.chain_id, condition_id: m.condition_id }, m.hashes);
    }));
    return rows.length;
  }

  const timer = setInterval(() => {
    running = running.then(() => (stopped ? 0 : sweepOnce())).catch((error: unknown) => {
      logger.error({ err: error }, 'hand-off sweep failed');
    });
  }, options.intervalMs ?? 1_000);

  return {
    sweepOnce,
    async stop() {
      stopped = true;
      clearInterval(timer);
      await running;
    },
  };
}
