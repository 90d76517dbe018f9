import { createDeadManSwitch, heartbeatWorkflowId } from '../../src/temporal/heartbeat.client';
import { createMarketMatcherClient, type MarketMatcherClient } from '../../src/temporal/market-matcher.client';
import { useTestDatabase } from '../helpers/test-database';
import { uniqueTaskQueue } from '../helpers/test-temporal';
import { createHarness, eventually, insertMarket, newMarket, persist, saveHistory, wallet, type Harness } from './market-harness';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('dead-man switch (heartbeat workflow)', () => {
  const { db } = useTestDatabase('heartbeat');
  const taskQueue = uniqueTaskQueue('heartbeat');
  let h: Harness;
  let matcher: MarketMatcherClient;

  beforeAll(async () => {
    h = await createHarness(db(), taskQueue);
    matcher = createMarketMatcherClient(h.client, taskQueue);
  });
  afterAll(async () => {
    await h?.close();
  });

  const statusOf = async (hash: string) => (await h.collections.orders.findOne({ order_hash: hash }))?.status;
  /** Two markets with resting orders of `owner`, and one of someone else. */
  async function restingOrders(owner: string) {
    const [m1, m2] = [newMarket(), newMarket()];
    await insertMarket(db(), m1);
    await insertMarket(db(), m2);
    const mine1 = await persist(db(), m1, [{ wallet: owner, side: 'BUY', price: 40, size: '2' }, { wallet: owner, side: 'SELL', price: 70, size: '1' }]);
    const [mine2] = await persist(db(), m2, [{ wallet: owner, side: 'BUY', price: 30, size: '1' }]);
    const [theirs] = await persist(db(), m1, [{ wallet: wallet(), side: 'BUY', price: 41, size: '1' }]);
    await matcher.submit(m1, [...mine1.map((o) => o.order_hash), theirs.order_hash]);
    await matcher.submit(m2, [mine2.order_hash]);
    const mine = [...mine1, mine2].map((o) => o.order_hash);
    for (const hash of [...mine, theirs.order_hash]) await eventually(async () => (await statusOf(hash)) === 'OPEN' && (await h.collections.orders.findOne({ order_hash: hash }))?.book_added_at, 20_000, 'resting');
    return { mine, theirs: theirs.order_hash };
  }

  test('when heartbeats keep coming, then nothing is cancelled; when they stop, every open order of the wallet ends CANCELLED HEARTBEAT_EXPIRED, others stay', async () => {
    const worker = await h.startWorker();
    const owner = wallet();
    const { mine, theirs } = await restingOrders(owner);
    const dms = createDeadManSwitch(h.client, taskQueue);
    const armed = await dms.beat(owner, 2);
    expect(armed.armed).toBe(true);
    expect(Date.parse(armed.expires_at!)).toBeGreaterThan(Date.now() + 1_000);
    for (let i = 0; i < 6; i++) {
      await sleep(500);
      await dms.beat(owner, 2);
    }
    for (const hash of mine) expect(await statusOf(hash)).toBe('OPEN');
    const handle = h.client.workflow.getHandle(heartbeatWorkflowId(owner));
    expect(await handle.result()).toBe('EXPIRED');
    for (const hash of mine) {
      const o = await eventually(async () => {
        const row = await h.collections.orders.findOne({ order_hash: hash });
        return row?.status === 'CANCELLED' ? row : null;
      }, 20_000, 'cancelled');
      expect(o.status_reason).toBe('HEARTBEAT_EXPIRED');
    }
    expect(await statusOf(theirs)).toBe('OPEN');
    await saveHistory(h, heartbeatWorkflowId(owner), 'heartbeat-expired.json');
    worker.worker.shutdown();
    await worker.done;
  });

  test('when the switch is disarmed, then it ends and the orders stay open past the timeout', async () => {
    const worker = await h.startWorker();
    const owner = wallet();
    const { mine } = await restingOrders(owner);
    const dms = createDeadManSwitch(h.client, taskQueue);
    await dms.beat(owner, 1);
    expect(await dms.beat(owner, 0)).toEqual({ armed: false, expires_at: null });
    expect(await h.client.workflow.getHandle(heartbeatWorkflowId(owner)).result()).toBe('DISARMED');
    await sleep(1_500);
    for (const hash of mine) expect(await statusOf(hash)).toBe('OPEN');
    // Disarming a switch that is not armed is fine.
    expect(await dms.beat(wallet(), 0)).toEqual({ armed: false, expires_at: null });
    worker.worker.shutdown();
    await worker.done;
  });

  test('when the worker is down while the timer runs out, then a worker started later still cancels the orders', async () => {
    const first = await h.startWorker();
    const second = await h.prepareWorker();
    const owner = wallet();
    const { mine } = await restingOrders(owner);
    await createDeadManSwitch(h.client, taskQueue).beat(owner, 2);
    // The run has taken the heartbeat (its timer is started) before the worker goes away.
    await eventually(async () => (await h.client.workflow.getHandle(heartbeatWorkflowId(owner)).fetchHistory()).events!.some((e) => e.timerStartedEventAttributes), 10_000, 'timer started');
    first.worker.shutdown();
    await first.done;
    await sleep(3_000);
    for (const hash of mine) expect(await statusOf(hash)).toBe('OPEN');
    second.start();
    for (const hash of mine) await eventually(async () => (await statusOf(hash)) === 'CANCELLED', 30_000, 'cancelled after restart');
    expect(await h.client.workflow.getHandle(heartbeatWorkflowId(owner)).result()).toBe('EXPIRED');
  });
});
