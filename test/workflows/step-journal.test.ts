/**
 * The step claims of src/matching/step-journal.ts, through the market activities: a placement
 * step's write claims its inputs before it writes, and a load of the same step returns them.
 * (test/workflows/lost-step.test.ts kills a worker mid-step and checks the whole path.)
 */
import { createMarketActivities } from '../../activities/market.activities';
import { ensureMatchingIndexes, matchingCollections } from '../../src/matching/collections';
import { marketKeyOf } from '../../src/matching/market-ids';
import { placeablesOf, type BatchWrite, type StepInputs } from '../../src/matching/payloads';
import { useTestDatabase } from '../helpers/test-database';
import { errorRecordingLogger, insertMarket, newMarket, persist, RecordingPublisher, wallet } from './market-harness';

describe('placement step claims', () => {
  const { db } = useTestDatabase('stepjournal');

  function setup() {
    const collections = matchingCollections(db());
    const { logger, errors } = errorRecordingLogger();
    const messages = () => errors.map(([, message]) => message);
    return { collections, messages, activities: createMarketActivities({ collections, publisher: new RecordingPublisher(), logger }) };
  }

  beforeAll(async () => {
    await ensureMatchingIndexes(matchingCollections(db()));
  });

  /** A step that places `hashes` (resting, no trades) at `at`, claimed as `step`. */
  function placing(market: ReturnType<typeof newMarket>, hashes: string[], at: number, step: StepInputs, seq: number): BatchWrite {
    return {
      market, decimals: 18, at, direct: [], trades: [], book: [], ticker: null, counters: { seq: seq + hashes.length, bookSeq: 0, tradeSeq: 0, arrival: hashes.length },
      orders: hashes.map((hash, i) => ({ hash, status: 'OPEN', remaining: '1000000000000000000', filled: '0', seq: seq + i + 1, arrival: i + 1, placed: true, reason: null })),
      step,
    };
  }

  test('when a step is loaded again after its write claimed it, then the load returns the claimed orders, clock and batch length, however the orders changed', async () => {
    const { activities, messages } = setup();
    const market = newMarket();
    await insertMarket(db(), market);
    const orders = await persist(db(), market, [1, 2, 3].map(() => ({ wallet: wallet(), side: 'BUY' as const, price: 40, size: '1' })));
    const [a, b, c] = orders.map((o) => o.order_hash);
    const first = await activities.loadOrdersForPlacement({ market, hashes: [a, b], step: 'run-1:1' });
    expect(first.decided).toBeUndefined();
    const placed = placeablesOf(first).map((o) => o.hash);
    expect(await activities.applyMatchBatch(placing(market, [a, b], 1_000_000, { id: 'run-1:1', runId: 'run-1', hashes: [a, b], placeable: placed }, 0))).toEqual({});

    // The retry of the task sees one more order queued; the claimed ones are handed over by now.
    const again = await activities.loadOrdersForPlacement({ market, hashes: [a, b, c], step: 'run-1:1' });
    expect(again.decided).toEqual({ at: 1_000_000, count: 2 });
    expect(placeablesOf(again).map((o) => o.hash)).toEqual([a, b]);
    expect(again.skipped).toEqual([]);
    // Another step of the run is not that claim: a fresh load, which skips the handed-over orders.
    const next = await activities.loadOrdersForPlacement({ market, hashes: [a, b, c], step: 'run-1:2' });
    expect(next.decided).toBeUndefined();
    expect(placeablesOf(next).map((o) => o.hash)).toEqual([c]);
    expect(messages()).toEqual([]);
  });

  test('when a write finds its step claimed with other inputs, then it writes nothing and answers diverged', async () => {
    const { activities, collections, messages } = setup();
    const market = newMarket();
    await insertMarket(db(), market);
    const [order] = await persist(db(), market, [{ wallet: wallet(), side: 'SELL', price: 60, size: '1' }]);
    const step = { id: 'run-2:1', runId: 'run-2', hashes: [order.order_hash], placeable: [order.order_hash] };
    await collections.steps.insertOne({
      _id: step.id, market_key: marketKeyOf(market), run_id: step.runId, at: 5_000, count: 1, digest: 'another batch', placeable: [0], created_at: new Date(),
    });
    expect(await activities.applyMatchBatch(placing(market, [order.order_hash], 6_000, step, 0))).toEqual({ diverged: true });
    expect(await collections.orders.findOne({ _id: order.order_hash })).toMatchObject({ handoff: 'PENDING', applied_seq: 0 });
    expect(messages()).toEqual([expect.stringMatching(/claimed by another attempt/)]);

    // Its load does not take a claim made over another batch: it decides afresh, and says so.
    const load = await activities.loadOrdersForPlacement({ market, hashes: [order.order_hash], step: step.id });
    expect(load.decided).toBeUndefined();
    expect(placeablesOf(load).map((o) => o.hash)).toEqual([order.order_hash]);
    expect(messages()[1]).toMatch(/claimed over another batch/);
  });

  test('when the same write runs twice (an ordinary retry), then its claim matches and the writes go on', async () => {
    const { activities, collections } = setup();
    const market = newMarket();
    await insertMarket(db(), market);
    const [order] = await persist(db(), market, [{ wallet: wallet(), side: 'BUY', price: 30, size: '1' }]);
    const step = { id: 'run-3:1', runId: 'run-3', hashes: [order.order_hash], placeable: [order.order_hash] };
    const batch = placing(market, [order.order_hash], 7_000, step, 0);
    expect(await activities.applyMatchBatch(batch)).toEqual({});
    expect(await activities.applyMatchBatch(batch)).toEqual({});
    expect(await collections.orders.findOne({ _id: order.order_hash })).toMatchObject({ handoff: 'ACCEPTED', status: 'OPEN', applied_seq: 1 });
  });

  test('when a run starts, then the claims of the market\'s earlier runs are dropped, and no other market\'s', async () => {
    const { activities, collections } = setup();
    const market = newMarket();
    const other = newMarket();
    await insertMarket(db(), market);
    const claim = (id: string, key: string, run: string) => ({ _id: id, market_key: key, run_id: run, at: 1, count: 0, digest: '', placeable: [], created_at: new Date() });
    await collections.steps.insertMany([
      claim('old:1', marketKeyOf(market), 'old'), claim('new:1', marketKeyOf(market), 'new'), claim('elsewhere:1', marketKeyOf(other), 'elsewhere'),
    ]);
    await activities.loadMarketState(market, { runId: 'new' });
    const left = await collections.steps.find({ _id: { $in: ['old:1', 'new:1', 'elsewhere:1'] } }).toArray();
    expect(left.map((s) => s._id).sort()).toEqual(['elsewhere:1', 'new:1']);
  });
});
