/**
 * The public book's levels (`book_levels`) are written by each step, guarded by the book seq. A
 * stale attempt of an earlier step (still running after its retry succeeded) must not bring back a
 * level a later step emptied.
 */
import { createMarketActivities } from '../../activities/market.activities';
import { mongo } from 'mongoose';
import { bookLevelIdOf } from '../../src/matching/book-level-ids';
import { ensureMatchingIndexes, matchingCollections } from '../../src/matching/collections';
import type { BatchWrite } from '../../src/matching/payloads';
import { useTestDatabase } from '../helpers/test-database';
import { logger, newMarket, RecordingPublisher } from './market-harness';

describe('book levels', () => {
  const { db } = useTestDatabase('book_levels');

  const setUp = async () => {
    const collections = matchingCollections(db());
    await ensureMatchingIndexes(collections);
    const market = newMarket();
    const steps = createMarketActivities({ collections, publisher: new RecordingPublisher(), logger });
    const step = (bookSeq: number, remaining: string, price = 40): BatchWrite => ({
      market, decimals: 18, at: Date.now(), orders: [], direct: [], trades: [], ticker: null,
      book: [{ bookSeq, changes: [{ side: 'bid', price, remaining }] }], counters: { seq: bookSeq, bookSeq, tradeSeq: 0, arrival: 0 },
    });
    const rows = () => collections.bookLevels.find({ condition_id: market.condition_id }).toArray();
    return { collections, market, steps, step, rows };
  };

  test('when a step writes a level, then its row is keyed by market, side and tick (the store finds it by its primary key)', async () => {
    const { market, steps, step, rows } = await setUp();
    await steps.applyMatchBatch(step(3, '500', 41));
    await steps.applyMatchBatch(step(4, '700', 41));
    expect(await rows()).toEqual([{
      _id: bookLevelIdOf(market.chain_id, market.condition_id, 'BID', 41), chain_id: market.chain_id, condition_id: market.condition_id,
      side: 'BID', ticks: 41, price: '0.41', remaining: '700', seq: 4,
    }]);
  });

  test('when a level row was written before levels had keys, then a step still updates that row and adds no second one', async () => {
    const { collections, market, steps, step, rows } = await setUp();
    const legacy = new mongo.ObjectId();
    await collections.bookLevels.insertOne({ _id: legacy as never, chain_id: market.chain_id, condition_id: market.condition_id, side: 'BID', ticks: 40, price: '0.4', remaining: '100', seq: 2 });
    await steps.applyMatchBatch(step(5, '900'));
    expect(await rows()).toEqual([expect.objectContaining({ _id: legacy, remaining: '900', seq: 5 })]);
    await steps.applyMatchBatch(step(4, '1')); // a stale attempt: older than the row
    expect(await rows()).toEqual([expect.objectContaining({ _id: legacy, remaining: '900', seq: 5 })]);
  });

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
