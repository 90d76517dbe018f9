/**
 * `loadCarriedResting` (RESTING_CARRIED): a new run's book from the resting list its previous run
 * carried. The rows come from MongoDB, so an order that ended since the list was taken stays out,
 * and the filter is the one of the query it replaces (`loadRestingPage`).
 */
import { createMarketActivities } from '../../activities/market.activities';
import { ensureMatchingIndexes, matchingCollections } from '../../src/matching/collections';
import { marketKeyOf } from '../../src/matching/market-ids';
import { useTestDatabase } from '../helpers/test-database';
import { errorRecordingLogger, insertMarket, newMarket, persist, RecordingPublisher, wallet } from './market-harness';

describe('carried resting orders', () => {
  const { db } = useTestDatabase('carriedresting');

  beforeAll(async () => {
    await ensureMatchingIndexes(matchingCollections(db()));
  });

  test('when a run loads the resting list it was handed, then it gets the orders of that list still resting in its market, oldest arrival first, with their stored sizes', async () => {
    const collections = matchingCollections(db());
    const activities = createMarketActivities({ collections, publisher: new RecordingPublisher(), logger: errorRecordingLogger().logger });
    const market = newMarket();
    const other = newMarket();
    await insertMarket(db(), market);
    await insertMarket(db(), other);
    const [open, partial, ended, pending] = await persist(db(), market, [40, 41, 42, 43].map((price) => ({ wallet: wallet(), side: 'BUY' as const, price, size: '2' })));
    const [elsewhere] = await persist(db(), other, [{ wallet: wallet(), side: 'BUY', price: 40, size: '1' }]);
    const rest = (hash: string, fields: Record<string, unknown>) => collections.orders.updateOne({ _id: hash }, { $set: { handoff: 'ACCEPTED', ...fields } });
    await rest(open.order_hash, { engine_arrival: 7 });
    await rest(partial.order_hash, { engine_arrival: 3, status: 'PARTIALLY_FILLED', remaining_units: '500000000000000000', filled_units: '1500000000000000000' });
    await rest(ended.order_hash, { engine_arrival: 5, status: 'CANCELLED' });
    await rest(elsewhere.order_hash, { engine_arrival: 1 });

    const unknown = `0x${'ab'.repeat(32)}`;
    const page = await activities.loadCarriedResting({
      marketKey: marketKeyOf(market),
      hashes: [open.order_hash, partial.order_hash, ended.order_hash, pending.order_hash, elsewhere.order_hash, unknown],
    });

    expect(page.next).toBeNull();
    expect(page.orders.map((o) => [o.hash, o.arrival, o.remaining, o.filled])).toEqual([
      [partial.order_hash, 3, '500000000000000000', '1500000000000000000'],
      [open.order_hash, 7, '2000000000000000000', '0'],
    ]);
    // The same rows as the market's query gives.
    const queried = await activities.loadRestingPage({ marketKey: marketKeyOf(market), afterArrival: 0, limit: 1_000 });
    expect(page.orders).toEqual(queried.orders);
  });
});
