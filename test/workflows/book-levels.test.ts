/**
 * The public book's levels (`book_levels`) are written by each step, guarded by the book seq. A
 * stale attempt of an earlier step (still running after its retry succeeded) must not bring back a
 * level a later step emptied.
 */
import { createMarketActivities } from '../../activities/market.activities';
import { ensureMatchingIndexes, matchingCollections } from '../../src/matching/collections';
import type { BatchWrite } from '../../src/matching/payloads';
import { useTestDatabase } from '../helpers/test-database';
import { logger, newMarket, RecordingPublisher } from './market-harness';

describe('book levels', () => {
  const { db } = useTestDatabase('book_levels');

  test('when a late attempt of an earlier step writes its level after a later step emptied it, then the level stays empty', async () => {
    const collections = matchingCollections(db());
    await ensureMatchingIndexes(collections);
    const market = newMarket();
    const steps = createMarketActivities({ collections, publisher: new RecordingPublisher(), logger });
    const step = (bookSeq: number, remaining: string): BatchWrite => ({
      market, decimals: 18, at: Date.now(), orders: [], direct: [], trades: [], ticker: null,
      book: [{ bookSeq, changes: [{ side: 'bid', price: 40, remaining }] }], counters: { seq: bookSeq, bookSeq, tradeSeq: 0, arrival: 0 },
    });
    const live = () => collections.bookLevels.find({ condition_id: market.condition_id, remaining: { $ne: '0' } }).toArray();

    await steps.applyMatchBatch(step(5, '1000'));
    expect(await live()).toEqual([expect.objectContaining({ side: 'BID', ticks: 40, remaining: '1000', seq: 5 })]);
    await steps.applyMatchBatch(step(6, '0')); // the level is emptied
    expect(await live()).toEqual([]);
    await steps.applyMatchBatch(step(5, '1000')); // the stale attempt of step 5
    expect(await live()).toEqual([]);
  });
});
