/**
 * A worker that dies after a market step wrote its rows but before its workflow task completed:
 * Temporal retries the task from history, and the step runs again (its local activities were never
 * recorded). The retry must decide what the lost attempt decided and wrote (docs/matching.md,
 * "Worker died mid-step"), whatever its own clock and its own view of the queue.
 */
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { marketDepthQuery, marketViewQuery } from '../../workflows/definitions';
import { marketWorkflowId } from '../../src/matching/market-ids';
import { createMarketMatcherClient } from '../../src/temporal/market-matcher.client';
import { watchOutput } from '../helpers/child-output';
import { testMongoUri, useTestDatabase } from '../helpers/test-database';
import { testTemporalAddress, uniqueTaskQueue } from '../helpers/test-temporal';
import { eventually } from '../helpers/eventually';
import { createHarness, insertMarket, newMarket, orderRecord, persist, saveHistory, store, wallet, type Harness } from './market-harness';

describe('a market step whose workflow task was lost after its writes', () => {
  const { db, name: dbName } = useTestDatabase('loststep');
  const taskQueue = uniqueTaskQueue('lost-step');
  let h: Harness;
  /** The run's workflow bundle: the doomed workers load it instead of bundling again. */
  let bundlePath: string;
  /**
   * A retried task waits out the killed worker's task timeout. Shorter than the market default
   * (30 s), and still past the 80% mark at which a worker whose local activity runs on reports a
   * heartbeat instead: each kill here comes within ~5 s of the doomed task's start.
   */
  const matcherOf = () => createMarketMatcherClient(h.client, taskQueue, { workflowTaskTimeout: '10s' });

  beforeAll(async () => {
    h = await createHarness(db(), taskQueue);
    bundlePath = (await h.workflowBundle()).codePath;
  });
  afterAll(async () => {
    await h?.close();
  });

  test('when the worker is killed after a step matched a GTD maker and the retry runs past its expiration, then the retry keeps the match, and the trade settles', async () => {
    const market = newMarket();
    await insertMarket(db(), market);
    const [taker] = await persist(db(), market, [{ wallet: wallet(), side: 'BUY', price: 55, size: '1' }]);
    const doomed = await lostTask(`trade:${taker.order_hash}`);
    // The fake chain refuses a match whose maker expired by its clock, as the exchange does: a
    // minute behind, it settles this one (as a real chain does when the match mines before the
    // expiration). What matters here is which trade the retry keeps.
    h.chain.clockAheadS = -60;
    try {
      await doomed.printed('READY');
      // The maker expires 3 s from now: the lost attempt matches it before that, the retry runs after.
      const expiration = Math.floor(Date.now() / 1000) + 3;
      const [maker] = await persist(db(), market, [{ wallet: wallet(), side: 'SELL', price: 50, size: '1', expiration }]);
      const matcher = matcherOf();
      await matcher.submit(market, [maker.order_hash]);
      await eventually('maker resting', async () => (await h.collections.orders.findOne({ _id: maker.order_hash }))?.handoff === 'ACCEPTED', { timeoutMs: 20_000 });
      await matcher.submit(market, [taker.order_hash]);
      await doomed.printed('WROTE');
      const lostAttempt = await h.collections.fills.find({ condition_id: market.condition_id }).toArray();
      expect(lostAttempt.map((f) => f.order_hash).sort()).toEqual([maker.order_hash, taker.order_hash].sort());

      // Past the maker's expiration, the worker dies and another one takes the market over.
      await doomed.takeOverAfter(expiration + 1);

      // The trade the lost attempt wrote is the trade: it settles, and both orders end FILLED.
      const fills = await eventually('the trade confirmed', async () => {
        const rows = await h.collections.fills.find({ condition_id: market.condition_id }).toArray();
        return rows.length === 2 && rows.every((f) => f.settlement_status === 'CONFIRMED') ? rows : null;
      }, { timeoutMs: 60_000 });
      expect(fills.map((f) => f._id).sort()).toEqual(lostAttempt.map((f) => f._id).sort());
      const orders = await eventually('both orders FILLED', async () => {
        const rows = await h.collections.orders.find({ condition_id: market.condition_id }).toArray();
        return rows.every((o) => o.status === 'FILLED') ? rows : null;
      }, { timeoutMs: 30_000 });
      expect(orders).toHaveLength(2);

      // The workflow's book agrees: nothing rests, in the engine or in the stored levels.
      const handle = h.client.workflow.getHandle(marketWorkflowId(market));
      const view = await handle.query(marketViewQuery);
      expect(view.resting).toBe(0);
      const depth = await handle.query(marketDepthQuery, 10);
      expect([...depth.bids, ...depth.asks]).toEqual([]);
      expect(await h.collections.bookLevels.countDocuments({ condition_id: market.condition_id, remaining: { $ne: '0' } })).toBe(0);
      await saveHistory(h, marketWorkflowId(market), 'market-step-journal.json');
    } finally {
      h.chain.clockAheadS = 0;
      await doomed.end();
    }
  }, 120_000);

  test('when the worker is killed after a cancel step wrote and the retry runs past the order\'s expiration, then the answer is the written one: cancelled', async () => {
    const market = newMarket();
    await insertMarket(db(), market);
    const owner = wallet();
    const gtd = orderRecord(market, { wallet: owner, side: 'BUY', price: 40, size: '1' });
    const doomed = await lostTask(`cancel:${gtd.order_hash}`);
    try {
      await doomed.printed('READY');
      // A GTD order that rests, expiring 3 s from now.
      const expiration = Math.floor(Date.now() / 1000) + 3;
      await store(db(), [{ ...gtd, order_type: 'GTD', expiration: String(expiration) }]);
      const matcher = matcherOf();
      await matcher.submit(market, [gtd.order_hash]);
      await eventually('GTD order resting', async () => (await h.collections.orders.findOne({ _id: gtd.order_hash }))?.handoff === 'ACCEPTED', { timeoutMs: 20_000 });

      // The lost attempt cancels it before its expiration: the row says CANCELLED.
      const answer = matcher.cancel(market, owner, [gtd.order_hash]);
      await doomed.printed('WROTE');
      expect(await h.collections.orders.findOne({ _id: gtd.order_hash })).toMatchObject({ status: 'CANCELLED', status_reason: 'USER_CANCEL' });

      // Past the expiration the worker dies; the retried task decides the cancel again.
      await doomed.takeOverAfter(expiration + 1);

      // The answer agrees with the row: cancelled, not "Order has expired".
      expect(await answer).toEqual({ cancelled: [gtd.order_hash], not_cancelled: [] });
      expect(await h.collections.orders.findOne({ _id: gtd.order_hash })).toMatchObject({ status: 'CANCELLED', status_reason: 'USER_CANCEL' });
      const view = await h.client.workflow.getHandle(marketWorkflowId(market)).query(marketViewQuery);
      expect(view.resting).toBe(0);
      await saveHistory(h, marketWorkflowId(market), 'market-request-clock.json');
    } finally {
      await doomed.end();
    }
  }, 120_000);

  test('when the worker is killed after an expiry pass wrote and the retry runs past a second order\'s expiration, then the retry repeats the written pass and expires the second in a pass of its own: the stored levels end empty, as the book', async () => {
    const market = newMarket();
    await insertMarket(db(), market);
    const [first, second] = [0, 1].map(() => ({
      ...orderRecord(market, { wallet: wallet(), side: 'BUY', price: 30, size: '1' }), order_type: 'GTD' as const, expiration: '0',
    }));
    const doomed = await lostTask(`expire:${first.order_hash}`);
    try {
      await doomed.printed('READY');
      // Two GTD bids on one level: the first expires 4 s from now, the second 3 s later. Set once the
      // doomed worker is up: its start can take longer than the 7 s the second order has to live.
      const now = Math.floor(Date.now() / 1000);
      first.expiration = String(now + 4);
      second.expiration = String(now + 7);
      await store(db(), [first, second]);
      const matcher = matcherOf();
      await matcher.submit(market, [first.order_hash, second.order_hash]);
      await eventually('both resting', async () => (await h.collections.orders.countDocuments({ _id: { $in: [first.order_hash, second.order_hash] }, handoff: 'ACCEPTED' })) === 2, { timeoutMs: 20_000 });

      // The lost attempt's pass expires the first: the level keeps the second's share.
      await doomed.printed('WROTE');
      expect(await h.collections.orders.findOne({ _id: first.order_hash })).toMatchObject({ status: 'EXPIRED' });
      expect((await h.collections.bookLevels.find({ condition_id: market.condition_id, remaining: { $ne: '0' } }).toArray()).map((l) => l.price)).toEqual(['0.3']);

      // Past the second's expiration the worker dies; the retried task decides the expiry again.
      await doomed.takeOverAfter(Number(second.expiration) + 1);
      await eventually('second expired', async () => (await h.collections.orders.findOne({ _id: second.order_hash }))?.status === 'EXPIRED', { timeoutMs: 60_000 });

      // The stored book agrees with the workflow's: empty (before: the level kept the second's share
      // at the seq of the lost attempt's pass, while the retry expired both under that seq).
      const handle = h.client.workflow.getHandle(marketWorkflowId(market));
      const depth = await handle.query(marketDepthQuery, 10);
      expect([...depth.bids, ...depth.asks]).toEqual([]);
      await eventually('stored levels empty', async () => (await h.collections.bookLevels.countDocuments({ condition_id: market.condition_id, remaining: { $ne: '0' } })) === 0, { timeoutMs: 10_000 });
      expect(await h.collections.orders.findOne({ _id: first.order_hash })).toMatchObject({ status: 'EXPIRED' });
      await saveHistory(h, marketWorkflowId(market), 'market-expiry-at-deadline.json');
    } finally {
      await doomed.end();
    }
  }, 120_000);

  /**
   * A doomed worker that dies after the step `after` names, and the worker that takes over from it:
   * `takeOverAfter(t)` waits past `t` (unix seconds), kills the doomed one and starts its successor;
   * `end` stops both (the file's tests share a task queue: each market must reach its own doomed worker).
   */
  async function lostTask(after: string) {
    const successor = await h.prepareWorker();
    const doomed = spawnDoomedWorker(after);
    let taking: ReturnType<typeof successor.start> | undefined;
    return {
      printed: doomed.printed,
      async takeOverAfter(seconds: number): Promise<void> {
        while (Date.now() < seconds * 1000) await new Promise((r) => setTimeout(r, 100));
        await doomed.kill();
        taking = successor.start();
      },
      async end(): Promise<void> {
        await doomed.kill();
        taking?.worker.shutdown();
        await taking?.done;
      },
    };
  }

  /**
   * The worker of test/workflows/fixtures/doomed-worker.ts, in its own process (killed with
   * SIGKILL); `after` names the step it dies after (`trade:{taker hash}`, `cancel:{hash}`).
   */
  function spawnDoomedWorker(after: string) {
    // tsx as a loader, not its CLI: the CLI runs the script in a child process, which SIGKILL would not reach.
    const child = spawn(process.execPath, ['--import', 'tsx', join(__dirname, 'fixtures', 'doomed-worker.ts')], {
      env: {
        ...process.env, DOOMED_MONGODB_URI: testMongoUri(), DOOMED_DB: dbName, DOOMED_TEMPORAL_ADDRESS: testTemporalAddress(),
        DOOMED_TASK_QUEUE: taskQueue, DOOMED_AFTER: after, DOOMED_WORKFLOW_BUNDLE: bundlePath,
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const output = watchOutput(child, 'the doomed worker');
    const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
    return {
      printed: (text: string) => output.printed(text, 60_000),
      async kill(): Promise<void> {
        if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
        await exited;
      },
    };
  }
});
