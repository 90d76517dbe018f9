import { ServiceError } from '@temporalio/client';
import { marketDepthQuery, marketViewQuery, type MarketWorkflowInput } from '../../workflows/definitions';
import { HANDOFF_HOLD_MS } from '../../workflows/market/limits';
import type { MarketMatcher } from '../../src/ports/market-matcher';
import type { OrderRecord } from '../../src/ports/order-record';
import { markHandoffs } from '../../src/matching/handoff-markers';
import { marketKeyOf, marketWorkflowId, settlementWorkflowId, type MarketRef } from '../../src/matching/market-ids';
import { ORPHAN_MARKER_MS, startHandoffSweeper } from '../../src/temporal/handoff-sweeper';
import { createMarketMatcherClient } from '../../src/temporal/market-matcher.client';
import { useTestDatabase } from '../helpers/test-database';
import { uniqueTaskQueue } from '../helpers/test-temporal';
import { eventually } from '../helpers/eventually';
import { createHarness, saveHistory, insertMarket, logger, newMarket, orderRecord, persist, wallet, type Harness } from './market-harness';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('matching recovery', () => {
  const { db } = useTestDatabase('rec');
  const taskQueue = uniqueTaskQueue('recovery');
  let h: Harness;

  beforeAll(async () => {
    h = await createHarness(db(), taskQueue);
    h.chain.hold = true;
  });
  afterAll(async () => {
    await h?.close();
  });

  /** gRPC's status code of a call that ran out of time (a query no worker answered in time). */
  const GRPC_DEADLINE_EXCEEDED = 4;

  /** Every order ends in exactly one state consistent with its fills and the book. */
  async function expectConsistent(market: MarketRef, orders: OrderRecord[]): Promise<void> {
    const handle = h.client.workflow.getHandle(marketWorkflowId(market));
    const view = await eventually('the market view, ready with nothing queued', async () => {
      // Right after a takeover a query can time out on the server (the workflow's sticky queue
      // belonged to the worker that left, and the new one may still be replaying): ask again.
      const v = await handle.query(marketViewQuery).catch((error: unknown) => {
        if (error instanceof ServiceError && (error.cause as { code?: number } | undefined)?.code === GRPC_DEADLINE_EXCEEDED) return null;
        throw error;
      });
      return v?.ready && v.queued === 0 ? v : null;
      // As long as the takeover's other waits: on a loaded machine (a CI run with the host's load
      // average ~4) this wait once ran out at 20 s after every order had been accepted.
    }, { timeoutMs: 60_000 });
    const rows = await h.collections.orders.find({ condition_id: market.condition_id }).toArray();
    expect(rows).toHaveLength(orders.length);
    const fills = await h.collections.fills.find({ condition_id: market.condition_id }).toArray();
    // Two fills (maker and taker) per trade; trade rows are written as trades settle (held here).
    const perTrade = new Map<string, string[]>();
    for (const f of fills) perTrade.set(f.trade_id, [...(perTrade.get(f.trade_id) ?? []), f.role]);
    for (const roles of perTrade.values()) expect(roles.sort()).toEqual(['maker', 'taker']);
    let resting = 0;
    for (const o of rows) {
      expect(o.handoff).toBe('ACCEPTED');
      const filled = fills.filter((f) => f.order_hash === o.order_hash).reduce((sum, f) => sum + BigInt(f.size_units), 0n);
      expect({ hash: o.order_hash, filled: BigInt(o.filled_units) }).toEqual({ hash: o.order_hash, filled });
      expect(BigInt(o.remaining_units) + filled).toBe(BigInt(o.size_units));
      const expected = BigInt(o.remaining_units) === 0n ? ['MATCHED'] : filled > 0n ? ['PARTIALLY_FILLED'] : ['OPEN'];
      expect(expected).toContain(o.status);
      if (o.status === 'OPEN' || o.status === 'PARTIALLY_FILLED') resting += 1;
    }
    expect(view.resting).toBe(resting);
    // The stored book equals the workflow's book.
    // (Settlement children completing wake the workflow, which may roll over to a new run: wait until it is ready.)
    const depth = await eventually('the market depth, ready', async () => {
      const d = await handle.query(marketDepthQuery, 500);
      return d.ready ? d : null;
    });
    const levels = await h.collections.bookLevels.find({ condition_id: market.condition_id, remaining: { $ne: '0' } }).toArray();
    const stored = (side: string) => levels.filter((l) => l.side === side).map((l) => ({ price: l.ticks as number, remaining: l.remaining as string }));
    expect(stored('BID').sort((a, b) => b.price - a.price)).toEqual(depth.bids);
    expect(stored('ASK').sort((a, b) => a.price - b.price)).toEqual(depth.asks);
    const state = await h.collections.bookStates.findOne({ condition_id: market.condition_id });
    expect(state?.seq).toBe(depth.seq);
  }

  test('when the worker is shut down mid-stream and another takes over, then every accepted order ends in exactly one correct state', async () => {
    const first = await h.startWorker();
    const second = await h.prepareWorker();
    const matcher = createMarketMatcherClient(h.client, taskQueue);
    const market = newMarket();
    await insertMarket(db(), market);
    const makers = Array.from({ length: 8 }, () => wallet());
    const specs = Array.from({ length: 160 }, (_, i) => ({
      wallet: makers[i % makers.length], side: (i % 2 === 0 ? 'BUY' : 'SELL') as 'BUY' | 'SELL', price: 45 + ((i * 7) % 11), size: String(1 + (i % 3)),
    }));
    const orders = await persist(db(), market, specs);
    const sends = [];
    for (let i = 0; i < orders.length; i += 10) sends.push(matcher.submit(market, orders.slice(i, i + 10).map((o) => o.order_hash)));
    await eventually('first batch', async () => (await h.collections.orders.countDocuments({ condition_id: market.condition_id, handoff: 'ACCEPTED' })) > 0, { timeoutMs: 60_000 });
    first.worker.shutdown();
    await first.done;
    await Promise.all(sends);
    second.start();
    await eventually('all accepted', async () => (await h.collections.orders.countDocuments({ condition_id: market.condition_id, handoff: 'ACCEPTED' })) === orders.length, { timeoutMs: 60_000 });
    await expectConsistent(market, orders);
  });

  test('when the API died after persisting, then the sweeper hands the orders over within seconds', async () => {
    const matcher = createMarketMatcherClient(h.client, taskQueue);
    const market = newMarket();
    await insertMarket(db(), market);
    const lost = await persist(db(), market, [
      { wallet: wallet(), side: 'BUY', price: 50, size: '1' },
      { wallet: wallet(), side: 'SELL', price: 50, size: '1' },
    ]);
    const sweeper = startHandoffSweeper({ collections: h.collections, matcher, logger, intervalMs: 60_000, olderThanMs: 500 });
    let fresh: OrderRecord | undefined;
    try {
      // First seen now: still within their normal hand-off window.
      expect(await sweeper.sweepOnce()).toBe(0);
      [fresh] = await persist(db(), market, [{ wallet: wallet(), side: 'BUY', price: 10, size: '1' }]);
      await sleep(600);
      // The fresh order was first seen by this pass: only the two seen 600 ms ago are swept.
      const swept = await sweeper.sweepOnce();
      expect(swept).toBeGreaterThanOrEqual(2);
      await eventually('swept orders matched', async () => (await h.collections.orders.findOne({ order_hash: lost[1].order_hash }))?.status === 'MATCHED', { timeoutMs: 20_000 });
      expect((await h.collections.orders.findOne({ order_hash: fresh.order_hash }))?.handoff).toBe('PENDING');
      // A second sweep of the same (now accepted) orders finds nothing old left of them, and drops their markers.
      await sweeper.sweepOnce();
      expect(await h.collections.fills.countDocuments({ condition_id: market.condition_id })).toBe(2);
      expect(await h.collections.handoffs.countDocuments({ _id: { $in: lost.map((o) => o.order_hash) } })).toBe(0);
      expect(await h.collections.handoffs.countDocuments({ _id: fresh.order_hash })).toBe(1);
    } finally {
      await sweeper.stop();
      // The other tests' sweeps see every marker of this database: the fresh order must not stay lost.
      if (fresh) {
        await h.collections.handoffs.deleteOne({ _id: fresh.order_hash });
        await h.collections.orders.deleteOne({ _id: fresh.order_hash });
      }
    }
  });

  test('when a handed-over order is still not taken, then the sweeper sends it again only when its schedule says so', async () => {
    // No worker polls this queue: the order stays PENDING, as in a market far behind.
    const matcher = createMarketMatcherClient(h.client, uniqueTaskQueue('idle'));
    const market = newMarket();
    await insertMarket(db(), market);
    const [order] = await persist(db(), market, [{ wallet: wallet(), side: 'BUY', price: 50, size: '1' }]);
    const sweeper = startHandoffSweeper({ collections: h.collections, matcher, logger, intervalMs: 60_000, olderThanMs: 1_000 });
    try {
      expect(await sweeper.sweepOnce()).toBe(0);
      await sleep(1_100);
      expect(await sweeper.sweepOnce()).toBe(1);
      // The next hand-off of the same order is 2 s later, however often the sweeper runs.
      expect(await sweeper.sweepOnce()).toBe(0);
      expect(await sweeper.sweepOnce()).toBe(0);
      expect(await h.collections.handoffs.countDocuments({ _id: order.order_hash })).toBe(1);
      const history = await h.client.workflow.getHandle(marketWorkflowId(market)).fetchHistory();
      expect(history.events?.filter((e) => e.workflowExecutionSignaledEventAttributes)).toHaveLength(1);
    } finally {
      await sweeper.stop();
      await h.client.workflow.getHandle(marketWorkflowId(market)).terminate('test done');
      // The other tests' sweeps see every marker of this database: this order must not stay lost.
      await h.collections.handoffs.deleteOne({ _id: order.order_hash });
      await h.collections.orders.deleteOne({ _id: order.order_hash });
    }
  });

  test('when more markers stay than one pass reads (a market stuck), then a newer lost hand-off of another market is still handed over within a few passes', async () => {
    const [stuck, other] = [newMarket(), newMarket()];
    const old = Date.now() - 10_000;
    const stuckOrders = await persist(db(), stuck, [0, 1, 2].map((i) => ({ wallet: wallet(), side: 'BUY' as const, price: 40, size: '1', createdAt: new Date(old + i) })));
    const [lost] = await persist(db(), other, [{ wallet: wallet(), side: 'BUY', price: 40, size: '1', createdAt: new Date(Date.now() - 5_000) }]);
    // A matcher that takes nothing: every marker stays, as a stuck market's do.
    const submitted: string[] = [];
    const matcher = { submit: (_market: MarketRef, hashes: string[]) => Promise.resolve(void submitted.push(...hashes)) } as unknown as MarketMatcher;
    const sweeper = startHandoffSweeper({ collections: h.collections, matcher, logger, intervalMs: 60_000, limit: 2, olderThanMs: 0 });
    try {
      for (let pass = 0; pass < 10 && !submitted.includes(lost.order_hash); pass++) await sweeper.sweepOnce();
      expect(submitted).toContain(lost.order_hash);
    } finally {
      await sweeper.stop();
      const hashes = [...stuckOrders, lost].map((o) => o.order_hash);
      await h.collections.handoffs.deleteMany({ _id: { $in: hashes } });
      await h.collections.orders.deleteMany({ _id: { $in: hashes } });
    }
  });

  const markerOf = (market: MarketRef, hash: string, createdAt: Date) => ({
    order_hash: hash, chain_id: market.chain_id, condition_id: market.condition_id, market_key: marketKeyOf(market), created_at: createdAt,
  });

  test('when a hand-off marker has no order, then the sweeper keeps it for orphanAfterMs (a minute by default) after first seeing it, and then drops it', async () => {
    expect(ORPHAN_MARKER_MS).toBe(60_000);
    const matcher = createMarketMatcherClient(h.client, taskQueue);
    const market = newMarket();
    const orphan = `0x${'b2'.repeat(32)}`;
    const recent = `0x${'a1'.repeat(32)}`;
    await markHandoffs(h.collections.handoffs, [markerOf(market, orphan, new Date())]);
    const sweeper = startHandoffSweeper({ collections: h.collections, matcher, logger, intervalMs: 60_000, olderThanMs: 0, orphanAfterMs: 500 });
    try {
      expect(await sweeper.sweepOnce()).toBe(0);
      expect(await h.collections.handoffs.countDocuments({ _id: orphan })).toBe(1);
      await sleep(600);
      await markHandoffs(h.collections.handoffs, [markerOf(market, recent, new Date())]);
      expect(await sweeper.sweepOnce()).toBe(0);
      expect(await h.collections.handoffs.countDocuments({ _id: recent })).toBe(1);
      expect(await h.collections.handoffs.countDocuments({ _id: orphan })).toBe(0);
    } finally {
      await sweeper.stop();
      await h.collections.handoffs.deleteOne({ _id: recent });
    }
  });

  test('when the API machine clock is far from the worker clock, then markers age by the sweeper clock: a lost hand-off stamped 10 min ahead is handed over olderThanMs after it is first seen, and the marker of an order still being written, stamped 10 min behind, is not dropped as an orphan', async () => {
    const market = newMarket();
    await insertMarket(db(), market);
    const submitted: string[] = [];
    const matcher = { submit: (_market: MarketRef, hashes: string[]) => Promise.resolve(void submitted.push(...hashes)) } as unknown as MarketMatcher;
    const minutes10 = 10 * 60_000;
    // An API machine 10 min ahead: its persisted order's marker says it is from the future.
    const [ahead] = await persist(db(), market, [{ wallet: wallet(), side: 'BUY', price: 40, size: '1', createdAt: new Date(Date.now() + minutes10) }]);
    // One 10 min behind, between writing its marker and its order: the marker looks ancient.
    const [behind] = [orderRecord(market, { wallet: wallet(), side: 'BUY', price: 41, size: '1', createdAt: new Date(Date.now() - minutes10) })];
    await markHandoffs(h.collections.handoffs, [behind]);
    const sweeper = startHandoffSweeper({ collections: h.collections, matcher, logger, intervalMs: 60_000, olderThanMs: 300, orphanAfterMs: 5_000 });
    try {
      await sweeper.sweepOnce();
      // Stamped long ago, but just seen: neither handed over nor dropped (before: dropped as an orphan here).
      expect(await h.collections.handoffs.countDocuments({ _id: behind.order_hash })).toBe(1);
      await h.collections.orders.insertOne({ _id: behind.order_hash, ...behind });
      expect(submitted).toEqual([]);
      await sleep(400);
      await sweeper.sweepOnce();
      // Both handed over 300 ms after first sight (before: the one from the future waited 10 min).
      expect(submitted.filter((hash) => hash === ahead.order_hash || hash === behind.order_hash).sort()).toEqual([ahead.order_hash, behind.order_hash].sort());
    } finally {
      await sweeper.stop();
      const hashes = [ahead.order_hash, behind.order_hash];
      await h.collections.handoffs.deleteMany({ _id: { $in: hashes } });
      await h.collections.orders.deleteMany({ _id: { $in: hashes } });
    }
  });

  test('when hand-offs of the same orders pile up before a continue-as-new, then the next run gets each hash once, at most maxCarriedPending, and the sweeper hands over the rest', async () => {
    // A queue of its own with no worker yet: the signals wait, and the first task finds the history
    // past its bound with all of them queued (as a market far behind a sweeper sending again does).
    const queue = uniqueTaskQueue('pile');
    const own = await createHarness(db(), queue);
    try {
      const matcher = createMarketMatcherClient(own.client, queue, { workflowInput: { historyLimit: 40, rollWaitMs: 500, maxCarriedPending: 4 } });
      const market = newMarket();
      await insertMarket(db(), market);
      const orders = await persist(db(), market, Array.from({ length: 6 }, (_, i) => ({ wallet: wallet(), side: 'BUY' as const, price: 10 + i, size: '1' })));
      for (let i = 0; i < 60; i++) await matcher.submit(market, [orders[i % orders.length].order_hash]);
      const handle = own.client.workflow.getHandle(marketWorkflowId(market));
      const firstRun = (await handle.describe()).runId;
      await own.startWorker();
      const continued = await eventually('the first run continued as new', async () => {
        const history = await own.client.workflow.getHandle(marketWorkflowId(market), firstRun).fetchHistory().catch(() => null);
        return history?.events?.find((e) => e.workflowExecutionContinuedAsNewEventAttributes)?.workflowExecutionContinuedAsNewEventAttributes;
      }, { timeoutMs: 30_000 });
      const input = JSON.parse(Buffer.from(continued.input!.payloads![0].data!).toString()) as MarketWorkflowInput;
      // Sixty hand-offs of six orders: the first four orders, once each, in arrival order.
      expect(input.pending).toEqual(orders.slice(0, 4).map((o) => o.order_hash));
      await eventually('the carried orders placed', async () => (await h.collections.orders.countDocuments({ condition_id: market.condition_id, handoff: 'ACCEPTED' })) === 4, { timeoutMs: 20_000 });
      // The two left out still have their markers: the sweeper hands them over (with any order
      // another test of this file left lost).
      const sweeper = startHandoffSweeper({ collections: own.collections, matcher, logger, intervalMs: 60_000, olderThanMs: 0 });
      try {
        expect(await sweeper.sweepOnce()).toBeGreaterThanOrEqual(2);
      } finally {
        await sweeper.stop();
      }
      await eventually('every order placed', async () => (await h.collections.orders.countDocuments({ condition_id: market.condition_id, handoff: 'ACCEPTED' })) === 6, { timeoutMs: 20_000 });
      const view = await eventually('the market view, ready with nothing queued', async () => {
        const v = await handle.query(marketViewQuery);
        return v.ready && v.queued === 0 ? v : null;
      });
      expect(view.resting).toBe(6);
      expect(await h.collections.orders.countDocuments({ condition_id: market.condition_id, status: 'OPEN', book_added_at: { $ne: null } })).toBe(6);
      // The next run kept the first one's workflow task timeout (continue-as-new inherits it).
      expect(Number((await handle.describe()).raw.executionConfig?.defaultWorkflowTaskTimeout?.seconds)).toBe(30);
    } finally {
      await own.close();
    }
  });

  test('when the workflow continues as new, then the book is rebuilt from MongoDB with its FIFO order', async () => {
    const matcher = createMarketMatcherClient(h.client, taskQueue, { workflowInput: { historyLimit: 40 } });
    const market = newMarket();
    await insertMarket(db(), market);
    const handle = h.client.workflow.getHandle(marketWorkflowId(market));
    const makers = Array.from({ length: 12 }, () => wallet());
    const all: OrderRecord[] = [];
    for (const m of makers) {
      const [o] = await persist(db(), market, [{ wallet: m, side: 'SELL', price: 70, size: '1' }]);
      all.push(o);
      await matcher.submit(market, [o.order_hash]);
      await eventually(`${o.order_hash} accepted`, async () => (await h.collections.orders.findOne({ order_hash: o.order_hash }))?.handoff === 'ACCEPTED');
    }
    // The taker must hit the makers oldest first, across run boundaries.
    const [taker] = await persist(db(), market, [{ wallet: wallet(), side: 'BUY', price: 70, size: '3' }]);
    all.push(taker);
    await matcher.submit(market, [taker.order_hash]);
    await eventually('taker matched', async () => (await h.collections.orders.findOne({ order_hash: taker.order_hash }))?.status === 'MATCHED', { timeoutMs: 20_000 });
    const hit = await h.collections.fills.find({ order_hash: { $in: all.slice(0, 12).map((o) => o.order_hash) } }).toArray();
    expect(hit.map((f) => f.order_hash).sort()).toEqual(all.slice(0, 3).map((o) => o.order_hash).sort());
    // A burst of separate signals (no coalescing) while runs keep rolling over: nothing is lost.
    const burst = await persist(db(), market, Array.from({ length: 24 }, (_, i) => ({ wallet: wallet(), side: (i % 2 ? 'BUY' : 'SELL') as 'BUY' | 'SELL', price: 30 + (i % 5), size: '1' })));
    await Promise.all(burst.map((o) => createMarketMatcherClient(h.client, taskQueue, { workflowInput: { historyLimit: 40 } }).submit(market, [o.order_hash])));
    all.push(...burst);
    await eventually('burst accepted', async () => (await h.collections.orders.countDocuments({ condition_id: market.condition_id, handoff: 'ACCEPTED' })) === all.length, { timeoutMs: 30_000 });
    await expectConsistent(market, all);
    // Every settlement batch a fill names gets started: receipts are held in this file, so the first
    // two settlements of a run stay under way and later steps' trades wait; a run that has waited
    // for them past twice its history bound starts every waiting batch before it continues as new,
    // and once they finish, the batches a run carried over start in the next.
    const batches = await h.collections.fills.distinct('settlement_batch', { condition_id: market.condition_id });
    expect(batches.length).toBeGreaterThan(1);
    h.chain.hold = false;
    try {
      await eventually('every settlement batch started', async () => {
        for (const batch of batches) {
          const found = await h.client.workflow.getHandle(settlementWorkflowId(String(batch))).describe().then(() => true, () => false);
          if (!found) return false;
        }
        return true;
      }, { timeoutMs: 30_000 });
    } finally {
      h.chain.hold = true;
    }
    // More than one run happened (the first run continued as new).
    await eventually('a continued-as-new run', async () => {
      const runs: string[] = [];
      for await (const e of h.client.workflow.list({ query: `WorkflowId = '${marketWorkflowId(market)}'` })) runs.push(e.status.name);
      return runs.includes('CONTINUED_AS_NEW');
    }, { timeoutMs: 10_000 });
    void handle;
  });

  /**
   * A market with orders resting on both sides (the first ask partly taken) whose run continues as
   * new (history bound 40); `maxCarriedResting` bounds the list the run may hand over. Returns the
   * first run's continue-as-new input, the book stored at the end, and the activities the next
   * run ran (scheduled or local).
   */
  async function restingRollOver(maxCarriedResting?: number) {
    const matcher = createMarketMatcherClient(h.client, taskQueue, { workflowInput: { historyLimit: 40, rollWaitMs: 500, maxCarriedResting } });
    const market = newMarket();
    await insertMarket(db(), market);
    const handle = h.client.workflow.getHandle(marketWorkflowId(market));
    const all: OrderRecord[] = [];
    const place = async (spec: { side: 'BUY' | 'SELL'; price: number; size: string }) => {
      const [o] = await persist(db(), market, [{ wallet: wallet(), ...spec }]);
      all.push(o);
      await matcher.submit(market, [o.order_hash]);
      await eventually(`${o.order_hash} accepted`, async () => (await h.collections.orders.findOne({ order_hash: o.order_hash }))?.handoff === 'ACCEPTED');
    };
    await place({ side: 'SELL', price: 60, size: '2' });
    const firstRun = (await handle.describe()).runId;
    await place({ side: 'BUY', price: 40, size: '1' });
    await place({ side: 'BUY', price: 60, size: '0.5' });
    for (let i = 0; (await handle.describe()).runId === firstRun; i += 1) {
      expect(i).toBeLessThan(40);
      await place({ side: i % 2 ? 'BUY' : 'SELL', price: i % 2 ? 30 + (i % 7) : 65 + (i % 7), size: '1' });
    }
    await expectConsistent(market, all);
    const events = (await h.client.workflow.getHandle(marketWorkflowId(market), firstRun).fetchHistory()).events!;
    const input = events.find((e) => e.workflowExecutionContinuedAsNewEventAttributes)!.workflowExecutionContinuedAsNewEventAttributes!.input!.payloads![0];
    const next = JSON.parse(Buffer.from(input.data!).toString('utf8')) as MarketWorkflowInput;
    const rows = await h.collections.orders.find({ condition_id: market.condition_id, status: { $in: ['OPEN', 'PARTIALLY_FILLED'] } }).toArray();
    expect(rows.find((o) => o.order_hash === all[0].order_hash)?.status).toBe('PARTIALLY_FILLED');
    const second = (await h.client.workflow.getHandle(marketWorkflowId(market)).fetchHistory()).events!;
    const activityTypes = second.flatMap((e) => {
      const scheduled = e.activityTaskScheduledEventAttributes?.activityType?.name;
      const marker = e.markerRecordedEventAttributes?.details?.data?.payloads?.[0]?.data;
      return [scheduled, marker ? (JSON.parse(Buffer.from(marker).toString('utf8')) as { activity_type?: string }).activity_type : undefined].filter(Boolean);
    });
    return { market, firstRun, next, resting: rows.sort((a, b) => Number(a.engine_arrival) - Number(b.engine_arrival)).map((o) => o.order_hash), activityTypes };
  }

  test('when the workflow continues as new, then the next run loads the book from the resting list the last run carried, by hash, not by querying the orders', async () => {
    const { market, firstRun, next, resting, activityTypes } = await restingRollOver();
    // The carried list is the book the run ended with, oldest first: the resting orders stored
    // now, but those the next run placed (the run's undelivered placements, `pending`).
    expect(next.resting).toEqual(resting.filter((hash) => !(next.pending ?? []).includes(hash)));
    expect(activityTypes).toContain('loadCarriedResting');
    expect(activityTypes).not.toContain('loadRestingPage');
    await saveHistory(h, marketWorkflowId(market), 'market-resting-carried.json', firstRun);
    await saveHistory(h, marketWorkflowId(market), 'market-resting-loaded.json');
  });

  test('when the book is deeper than the list a run may carry, then the next run finds it by the query, and it is the same book', async () => {
    const { next, resting, activityTypes } = await restingRollOver(2);
    expect(resting.length).toBeGreaterThan(2);
    expect(next.resting).toBeUndefined();
    expect(activityTypes).toContain('loadRestingPage');
    expect(activityTypes).not.toContain('loadCarriedResting');
  });

  /**
   * A market whose run goes past its history bound (60 events) while receipts are held, so that
   * its first two settlements stay under way and later steps' trades wait. `settleAfterMs`: when
   * the receipts come (after the run is seen rolling); the run waits for its children `rollWaitMs`.
   */
  async function rollOver(opts: { rollWaitMs: number; settleAfterMs: number }) {
    const matcher = createMarketMatcherClient(h.client, taskQueue, { workflowInput: { historyLimit: 60, rollWaitMs: opts.rollWaitMs } });
    const market = newMarket();
    await insertMarket(db(), market);
    const handle = h.client.workflow.getHandle(marketWorkflowId(market));
    const all: OrderRecord[] = [];
    /** One crossing pair, placed and matched in a step of its own (each step settles apart). */
    const trade = async () => {
      const pair = await persist(db(), market, [
        { wallet: wallet(), side: 'SELL', price: 55, size: '1' },
        { wallet: wallet(), side: 'BUY', price: 55, size: '1' },
      ]);
      all.push(...pair);
      await matcher.submit(market, pair.map((o) => o.order_hash));
      await eventually('pair matched', async () => (await h.collections.orders.findOne({ order_hash: pair[1].order_hash }))?.status === 'MATCHED', { timeoutMs: 20_000 });
    };
    try {
      h.chain.hold = true;
      await trade();
      const firstRun = (await handle.describe()).runId;
      while ((await handle.describe()).historyLength < 70) await trade();
      // Past its bound, the run still matches, and has not continued as new.
      await trade();
      await trade();
      const rolling = await handle.describe();
      expect(rolling.runId).toBe(firstRun);
      expect(rolling.status.name).toBe('RUNNING');
      setTimeout(() => { h.chain.hold = false; }, opts.settleAfterMs);
      await eventually('a new run', async () => (await handle.describe()).runId !== firstRun, { timeoutMs: 30_000 });
      // Every trade settles, the carried ones by the next run.
      const fills = await eventually('every fill confirmed', async () => {
        const rows = await h.collections.fills.find({ condition_id: market.condition_id }).toArray();
        return rows.length === all.length && rows.every((f) => f.settlement_status === 'CONFIRMED') ? rows : null;
      }, { timeoutMs: 30_000 });
      await eventually('every order filled', async () => (await h.collections.orders.countDocuments({ condition_id: market.condition_id, status: 'FILLED' })) === all.length, { timeoutMs: 20_000 });
      const events = (await h.client.workflow.getHandle(marketWorkflowId(market), firstRun).fetchHistory()).events!;
      const last = events.findIndex((e) => e.workflowExecutionContinuedAsNewEventAttributes);
      expect(last).toBeGreaterThan(0);
      const before = events.slice(0, last);
      const input = events[last].workflowExecutionContinuedAsNewEventAttributes!.input!.payloads![0];
      const next = JSON.parse(Buffer.from(input.data!).toString('utf8')) as MarketWorkflowInput;
      // The trades of its last steps went to the next run, which started their settlement.
      const carried = next.pendingSettlements ?? [];
      expect(carried.length).toBeGreaterThan(0);
      for (const batch of carried) {
        const child = await h.client.workflow.getHandle(settlementWorkflowId(batch.batchId)).describe();
        expect(child.parentExecution?.runId).not.toBe(firstRun);
        expect(batch.trades.every(([tradeId, taker]) => fills.some((f) => f.trade_id === tradeId && f.role === 'taker' && f.order_hash === taker))).toBe(true);
      }
      // It held the market's hand-offs (in this worker and through the fan-out) with an activity
      // (drained before it returned) that ended its last but one task, and the next run released them.
      expect(next.handoffsHeld).toBe(true);
      const key = marketKeyOf(market);
      expect(h.handoffs.held.filter((x) => x.market === key).map((x) => x.ms)).toEqual([HANDOFF_HOLD_MS, 0]);
      expect(h.publisher.handoffHolds.filter((e) => e.condition_id === market.condition_id).map((e) => e.hold_ms)).toEqual([HANDOFF_HOLD_MS, 0]);
      const holdAt = before.findIndex((e) => e.activityTaskScheduledEventAttributes?.activityType?.name === 'holdHandoffs');
      expect(holdAt).toBeGreaterThan(0);
      expect(before.slice(holdAt).filter((e) => e.timerStartedEventAttributes || e.markerRecordedEventAttributes)).toEqual([]);
      const started = before.filter((e) => e.childWorkflowExecutionStartedEventAttributes).length;
      const completed = before.filter((e) => e.childWorkflowExecutionCompletedEventAttributes).length;
      return { market, firstRun, started, completed };
    } finally {
      h.chain.hold = true;
    }
  }

  test('when a run is due to continue as new while its settlements are under way, then it keeps matching, continues as new once they finished, and the next run settles the trades it carried', async () => {
    const { market, firstRun, started, completed } = await rollOver({ rollWaitMs: 120_000, settleAfterMs: 0 });
    // No child of the first run was under way when it continued as new.
    expect(started).toBeGreaterThanOrEqual(2);
    expect(completed).toBe(started);
    await saveHistory(h, marketWorkflowId(market), 'market-roll-after-children.json', firstRun);
  });

  test('when its settlements take longer than the run waits for them, then it continues as new with them under way, and every trade still settles', async () => {
    const { market, firstRun, started, completed } = await rollOver({ rollWaitMs: 4_000, settleAfterMs: 8_000 });
    expect(started).toBeGreaterThanOrEqual(2);
    expect(completed).toBe(0);
    await saveHistory(h, marketWorkflowId(market), 'market-roll-bounded.json', firstRun);
    await saveHistory(h, marketWorkflowId(market), 'market-roll-released.json');
  });

  test('when the market workflow is terminated and started again, then it rebuilds the book and continues the sequences', async () => {
    const matcher = createMarketMatcherClient(h.client, taskQueue);
    const market = newMarket();
    await insertMarket(db(), market);
    const orders = await persist(db(), market, [
      { wallet: wallet(), side: 'SELL', price: 60, size: '2' },
      { wallet: wallet(), side: 'BUY', price: 60, size: '1' },
      { wallet: wallet(), side: 'BUY', price: 40, size: '1' },
    ]);
    await matcher.submit(market, orders.map((o) => o.order_hash));
    await eventually('three orders accepted', async () => (await h.collections.orders.countDocuments({ condition_id: market.condition_id, handoff: 'ACCEPTED' })) === 3);
    const handle = h.client.workflow.getHandle(marketWorkflowId(market));
    const before = await handle.query(marketDepthQuery, 50);
    expect(before.ready).toBe(true);
    const view = await handle.query(marketViewQuery);
    await handle.terminate('test: lose the workflow');
    const [taker] = await persist(db(), market, [{ wallet: wallet(), side: 'BUY', price: 65, size: '1' }]);
    await matcher.submit(market, [taker.order_hash]);
    await eventually('taker matched', async () => (await h.collections.orders.findOne({ order_hash: taker.order_hash }))?.status === 'MATCHED', { timeoutMs: 20_000 });
    const after = await h.client.workflow.getHandle(marketWorkflowId(market)).query(marketViewQuery);
    expect(after.counters.tradeSeq).toBe(view.counters.tradeSeq + 1);
    expect(after.counters.bookSeq).toBe(before.seq + 1);
    const fills = await h.collections.fills.find({ condition_id: market.condition_id }).toArray();
    expect(new Set(fills.map((f) => f.trade_id)).size).toBe(2);
    await expectConsistent(market, [...orders, taker]);
    await saveHistory(h, marketWorkflowId(market), 'market-restart.json');
  });

  test('when a run is terminated with settlement batches it had not started, then the next run finds them from their fills and every trade settles', async () => {
    const matcher = createMarketMatcherClient(h.client, taskQueue);
    const market = newMarket();
    await insertMarket(db(), market);
    const all: OrderRecord[] = [];
    // Four trading steps. Receipts are held in this file: the first two steps' settlements stay
    // under way (MAX_SETTLING), and the trades of the next two wait in the run for a child.
    for (let i = 0; i < 4; i++) {
      const [maker] = await persist(db(), market, [{ wallet: wallet(), side: 'SELL', price: 50, size: '1' }]);
      await matcher.submit(market, [maker.order_hash]);
      await eventually('the maker accepted', async () => (await h.collections.orders.findOne({ order_hash: maker.order_hash }))?.handoff === 'ACCEPTED');
      const [taker] = await persist(db(), market, [{ wallet: wallet(), side: 'BUY', price: 50, size: '1' }]);
      await matcher.submit(market, [taker.order_hash]);
      await eventually('taker matched', async () => (await h.collections.orders.findOne({ order_hash: taker.order_hash }))?.status === 'MATCHED', { timeoutMs: 20_000 });
      all.push(maker, taker);
    }
    const batches = (await h.collections.fills.distinct('settlement_batch', { condition_id: market.condition_id })).map(String);
    const started = async (batch: string) => h.client.workflow.getHandle(settlementWorkflowId(batch)).describe().then(() => true, () => false);
    expect(batches).toHaveLength(3);
    const waiting: string[] = [];
    for (const batch of batches) if (!(await started(batch))) waiting.push(batch);
    expect(waiting).toHaveLength(1);
    // One of the two under way is stopped too, after its transaction went out (no receipt yet).
    const [stopped, underWay] = batches.filter((b) => !waiting.includes(b));
    await h.client.workflow.getHandle(settlementWorkflowId(stopped)).terminate('test: lose a settlement after its send');
    const handle = h.client.workflow.getHandle(marketWorkflowId(market));
    await handle.terminate('test: lose the run and the trades it holds');
    // The next hand-off (a trade of its own) starts a run cold. It finds the three batches: it starts the waiting one,
    // starts the stopped one again (which finds its match on chain instead of sending it twice),
    // and leaves the one under way to its child.
    const late = await persist(db(), market, [{ wallet: wallet(), side: 'SELL', price: 50, size: '1' }, { wallet: wallet(), side: 'BUY', price: 50, size: '1' }]);
    await matcher.submit(market, late.map((o) => o.order_hash));
    all.push(...late);
    await eventually('the new run matches', async () => (await h.collections.orders.findOne({ order_hash: late[1].order_hash }))?.status === 'MATCHED', { timeoutMs: 20_000 });
    await eventually('the waiting batch started', async () => started(waiting[0]), { timeoutMs: 20_000 });
    await eventually('the stopped batch started again', async () => (await h.client.workflow.getHandle(settlementWorkflowId(stopped)).describe()).status.name === 'RUNNING', { timeoutMs: 20_000 });
    expect((await h.client.workflow.getHandle(settlementWorkflowId(underWay)).describe()).status.name).toBe('RUNNING');
    const next = await h.client.workflow.getHandle(marketWorkflowId(market)).describe();
    expect(next.status.name).toBe('RUNNING');
    h.chain.hold = false;
    try {
      await eventually('every order filled', async () => (await h.collections.orders.countDocuments({ order_hash: { $in: all.map((o) => o.order_hash) }, status: 'FILLED' })) === all.length, { timeoutMs: 30_000 });
    } finally {
      h.chain.hold = true;
    }
    // Ten orders FILLED: the new run's own trade settled beside the found batches. (A second send of
    // the stopped batch's match would have reverted, FakeChain as the exchange: FAILED fills.)
    expect(await h.collections.fills.countDocuments({ condition_id: market.condition_id, settlement_status: { $ne: 'CONFIRMED' } })).toBe(0);
    await saveHistory(h, marketWorkflowId(market), 'market-recover-pending-settlements.json', next.runId);
  });
});
