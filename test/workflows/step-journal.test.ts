/**
 * The step claims of src/matching/step-journal.ts, through the market activities: a placement
 * step's write claims its inputs before it writes, and a load of the same step returns them.
 * (test/workflows/lost-step.test.ts kills a worker mid-step and checks the whole path.)
 */
import { createMarketActivities } from '../../activities/market.activities';
import { ensureMatchingIndexes, matchingCollections, type MatchingCollections } from '../../src/matching/collections';
import { marketKeyOf } from '../../src/matching/market-ids';
import { placeablesOf, type BatchWrite, type StepInputs, type TradeLegWrite } from '../../src/matching/payloads';
import { useTestDatabase } from '../helpers/test-database';
import { errorRecordingLogger, insertMarket, newMarket, persist, RecordingPublisher, wallet } from './market-harness';

describe('placement step claims', () => {
  const { db } = useTestDatabase('stepjournal');

  function setup(collections: MatchingCollections = matchingCollections(db())) {
    const { logger, errors } = errorRecordingLogger();
    const messages = () => errors.map(([, message]) => message);
    const publisher = new RecordingPublisher();
    return { collections, messages, publisher, activities: createMarketActivities({ collections, publisher, logger }) };
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

  /** The store refuses every order write (it went down after the step's claim and fills). */
  function failingOrderWrites(collections: MatchingCollections): MatchingCollections {
    const orders = new Proxy(collections.orders, {
      get(target, prop) {
        if (prop === 'bulkWrite') return () => Promise.reject(new Error('connection closed'));
        const value: unknown = Reflect.get(target, prop, target);
        return typeof value === 'function' ? (value as (...args: unknown[]) => unknown).bind(target) : value;
      },
    });
    return { ...collections, orders };
  }

  const TWO = (2n * 10n ** 18n).toString();
  const PAID = (12n * 10n ** 17n).toString();

  /** A resting SELL 2 @0.60 (step 1 of run `old`), then a BUY 2 @0.60 that takes it (step 2). */
  async function makerThenTaker() {
    const market = newMarket();
    await insertMarket(db(), market);
    const [maker, taker] = await persist(db(), market, [
      { wallet: wallet(), side: 'SELL', price: 60, size: '2' }, { wallet: wallet(), side: 'BUY', price: 60, size: '2' },
    ]);
    const rest: BatchWrite = {
      market, decimals: 18, at: 1_000, direct: [], trades: [], ticker: null,
      orders: [{ hash: maker.order_hash, status: 'OPEN', remaining: TWO, filled: '0', seq: 1, arrival: 1, placed: true, reason: null }],
      book: [{ bookSeq: 1, changes: [{ side: 'ask', price: 60, remaining: TWO }] }],
      counters: { seq: 1, bookSeq: 1, tradeSeq: 0, arrival: 1 },
      step: { id: 'old:1', runId: 'old', hashes: [maker.order_hash], placeable: [maker.order_hash] },
    };
    const leg = (o: typeof maker, collateral: string): TradeLegWrite => ({ orderHash: o.order_hash, maker: o.maker, side: o.side, outcome: 1, price: 60, size: TWO, collateral, fee: '0' });
    const take: BatchWrite = {
      market, decimals: 18, at: 2_000, direct: [], ticker: { seq: 2, bestBid: null, bestAsk: null, lastPrice: 60 },
      orders: [
        { hash: maker.order_hash, status: 'MATCHED', remaining: '0', filled: TWO, seq: 3, arrival: null, placed: false, reason: null },
        { hash: taker.order_hash, status: 'MATCHED', remaining: '0', filled: TWO, seq: 4, arrival: null, placed: true, reason: null },
      ],
      trades: [{ tradeId: `${marketKeyOf(market)}:1`, seq: 3, kind: 'TRANSFER', yesPrice: 60, size: TWO, maker: leg(maker, PAID), taker: leg(taker, PAID) }],
      book: [{ bookSeq: 2, changes: [{ side: 'ask', price: 60, remaining: '0' }] }],
      counters: { seq: 4, bookSeq: 2, tradeSeq: 1, arrival: 1 },
      step: { id: 'old:2', runId: 'old', hashes: [taker.order_hash], placeable: [taker.order_hash] },
    };
    return { market, maker, taker, rest, take };
  }

  test('when a run was terminated while its last step\'s write was failing (claim and fills written, orders not), then the next run\'s start writes the rest before its book is read: the maker does not rest again, the taker is handed over, their events go out', async () => {
    const { market, maker, taker, rest, take } = await makerThenTaker();
    const old = setup();
    expect(await old.activities.applyMatchBatch(rest)).toEqual({});
    const cut = setup(failingOrderWrites(matchingCollections(db())));
    await expect(cut.activities.applyMatchBatch(take)).rejects.toThrow('connection closed');
    const { collections } = old;
    expect(await collections.fills.countDocuments({ order_hash: { $in: [maker.order_hash, taker.order_hash] } })).toBe(2);
    expect(await collections.orders.findOne({ _id: maker.order_hash })).toMatchObject({ status: 'OPEN', remaining_units: TWO });

    const next = setup();
    await next.activities.loadMarketState(market, { runId: 'new' });
    expect(await collections.orders.findOne({ _id: maker.order_hash })).toMatchObject({ status: 'MATCHED', remaining_units: '0', applied_seq: 3 });
    expect(await collections.orders.findOne({ _id: taker.order_hash })).toMatchObject({ status: 'MATCHED', handoff: 'ACCEPTED', applied_seq: 4, book_added_at: new Date(2_000) });
    expect((await next.activities.loadRestingPage({ marketKey: marketKeyOf(market), afterArrival: 0, limit: 10 })).orders).toEqual([]);
    expect(await collections.bookLevels.findOne({ chain_id: market.chain_id, condition_id: market.condition_id, side: 'ASK', ticks: 60 })).toMatchObject({ remaining: '0', seq: 2 });
    const told = next.publisher.events.flatMap((e) => (e.channel === 'user' && e.payload.type === 'order' ? [[e.payload.order.order_hash, e.payload.order.status]] : []));
    expect(told.sort()).toEqual([[maker.order_hash, 'MATCHED'], [taker.order_hash, 'MATCHED']].sort());
    expect(await collections.steps.countDocuments({ run_id: 'old' })).toBe(0);
    expect(next.messages()).toEqual([]);
  });

  test('when the earlier run\'s last step was written in full (a run that continued as new), then the next run\'s start writes nothing again and publishes nothing', async () => {
    const { market, maker, rest, take } = await makerThenTaker();
    const old = setup();
    expect(await old.activities.applyMatchBatch(rest)).toEqual({});
    expect(await old.activities.applyMatchBatch(take)).toEqual({});
    // A stale attempt of step 1 still running does not replace step 2 as the market's last.
    expect(await old.activities.applyMatchBatch(rest)).toEqual({});
    expect(await old.collections.lastSteps.findOne({ _id: marketKeyOf(market) })).toMatchObject({ step: 'old:2', run_id: 'old', n: 2 });
    const before = await old.collections.orders.findOne({ _id: maker.order_hash });
    const next = setup();
    await next.activities.loadMarketState(market, { runId: 'new' });
    expect(next.publisher.events).toEqual([]);
    expect(await old.collections.orders.findOne({ _id: maker.order_hash })).toEqual(before);
    expect(await old.collections.steps.countDocuments({ run_id: 'old' })).toBe(0);
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
