/**
 * Quotes read the market from each API process's record cache. A status change written by the
 * market workflow's activity reaches every process's cache before the activity returns (so before
 * the operator's change is answered): right after it, no process quotes the market as OPEN.
 */
import { createMarketActivities } from '../../activities/market.activities';
import { ensureMatchingIndexes, matchingCollections } from '../../src/matching/collections';
import { createMarketModel } from '../../src/db/models';
import { MarketRecordCache } from '../../src/orders/market-record-cache';
import type { OrderContext } from '../../src/orders/context';
import { createOrderEventHook } from '../../src/orders/realtime-hooks';
import type { RealtimeEvent, RealtimePublisher } from '../../src/ports/realtime-publisher';
import { createChainRegistry } from '../../src/markets/chains';
import { findQuotedMarket, requireOpen } from '../../src/trade/trade-market';
import { TEST_CHAIN } from '../api/app-harness';
import { useTestDatabase } from '../helpers/test-database';
import { insertMarket, logger, newMarket } from '../workflows/market-harness';

describe('quoted market records across API processes', () => {
  const { db } = useTestDatabase('quotestatus');

  test('when the market workflow pauses a market, then every process refuses its next quote MARKET_NOT_ACTIVE', async () => {
    const collections = matchingCollections(db());
    await ensureMatchingIndexes(collections);
    const market = newMarket();
    await insertMarket(db(), market, 'OPEN');
    const chains = createChainRegistry([TEST_CHAIN]);
    // Two API processes, each with its cache and its event hook; the push delivers to both before it resolves.
    const processes = [0, 1].map(() => {
      const marketRecords = new MarketRecordCache(createMarketModel(db()), 60_000);
      return { marketRecords, hook: createOrderEventHook({ marketRecords } as unknown as OrderContext) };
    });
    const push: RealtimePublisher = {
      publish: async (events: RealtimeEvent[]) => {
        for (const p of processes) for (const event of events) void p.hook(event);
      },
    };
    const quoted = (p: (typeof processes)[number]) => findQuotedMarket({ store: undefined as never, chains, marketRecords: p.marketRecords }, market.chain_id, market.condition_id);
    for (const p of processes) expect((await quoted(p)).status).toBe('OPEN');

    const steps = createMarketActivities({ collections, publisher: push, logger });
    await steps.applyMarketStatus({ market, change_id: 'market-q:run:status:1', from_status: 'OPEN', to_status: 'PAUSED', resolution_outcome: null, actor: 'operator', at: Date.now() });

    for (const p of processes) {
      const record = await quoted(p);
      expect(() => requireOpen(record)).toThrow(expect.objectContaining({ code: 'MARKET_NOT_ACTIVE' }));
    }
  });
});
