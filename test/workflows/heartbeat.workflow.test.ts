import { createHeartbeatStore, heartbeatBucketOf, heartbeatsCollection } from '../../src/heartbeat/beat-store';
import { createDeadManSwitch, type BufferedDeadManSwitch, type SwitchSignals } from '../../src/heartbeat/dead-man-switch';
import { createSwitchSignals, heartbeatWorkflowId } from '../../src/temporal/heartbeat.client';
import { createMarketMatcherClient, type MarketMatcherClient } from '../../src/temporal/market-matcher.client';
import { HEARTBEAT_EXPIRY_GRACE_MS } from '../../workflows/heartbeat.workflow';
import { useTestDatabase } from '../helpers/test-database';
import { uniqueTaskQueue } from '../helpers/test-temporal';
import { eventually } from '../helpers/eventually';
import { createHarness, insertMarket, newMarket, persist, saveHistory, wallet, type Harness } from './market-harness';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
/** What a loaded test machine adds to a cancel past the deadline and grace: timer lateness, the read, the pull. */
const LOADED_MACHINE_MS = 3_000;

describe('dead-man switch (heartbeat workflow)', () => {
  const { db } = useTestDatabase('heartbeat');
  const taskQueue = uniqueTaskQueue('heartbeat');
  let h: Harness;
  let matcher: MarketMatcherClient;
  const switches: BufferedDeadManSwitch[] = [];

  beforeAll(async () => {
    h = await createHarness(db(), taskQueue);
    matcher = createMarketMatcherClient(h.client, taskQueue);
  });
  afterAll(async () => {
    for (const s of switches) await s.close();
    await h?.close();
  });

  /** One API process's switch, counting the workflow signals it sends. */
  function apiSwitch(): { dms: BufferedDeadManSwitch; signals: [string, number][] } {
    const sent: [string, number][] = [];
    const real = createSwitchSignals(h.client, taskQueue);
    const signals: SwitchSignals = {
      arm: (w, t) => (sent.push([w, t]), real.arm(w, t)),
      disarm: (w) => (sent.push([w, 0]), real.disarm(w)),
    };
    const dms = createDeadManSwitch({ signals, store: createHeartbeatStore(heartbeatsCollection(db())) });
    switches.push(dms);
    return { dms, signals: sent };
  }
  const statusOf = async (hash: string) => (await h.collections.orders.findOne({ order_hash: hash }))?.status;
  const endedAt = async (owner: string) => (await heartbeatsCollection(db()).findOne({ _id: heartbeatBucketOf(owner.toLowerCase()) }))?.ended?.[owner.toLowerCase()];
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
    for (const hash of [...mine, theirs.order_hash]) await eventually('resting', async () => (await statusOf(hash)) === 'OPEN' && (await h.collections.orders.findOne({ order_hash: hash }))?.book_added_at, { timeoutMs: 20_000 });
    return { mine, theirs: theirs.order_hash };
  }

  test('when heartbeats keep coming, then one signal arms the switch and nothing is cancelled; when they stop, every open order of the wallet ends CANCELLED HEARTBEAT_EXPIRED within the timeout and grace, others stay', async () => {
    const worker = await h.startWorker();
    const owner = wallet();
    const { mine, theirs } = await restingOrders(owner);
    const { dms, signals } = apiSwitch();
    const armed = await dms.beat(owner, 2);
    expect(armed.armed).toBe(true);
    expect(Date.parse(armed.expires_at!)).toBeGreaterThan(Date.now() + 1_000);
    // Four seconds of beats: the run's first deadline passes twice over, and each time it finds a newer beat.
    let lastBeat = 0;
    for (let i = 0; i < 8; i++) {
      await sleep(500);
      lastBeat = Date.now();
      await dms.beat(owner, 2);
    }
    expect(signals).toEqual([[owner.toLowerCase(), 2]]);
    for (const hash of mine) expect(await statusOf(hash)).toBe('OPEN');
    const handle = h.client.workflow.getHandle(heartbeatWorkflowId(owner));
    expect(await handle.result()).toBe('EXPIRED');
    // The run decided to expire (and wrote so) no earlier than the deadline and within the grace and the machine's lag.
    const ended = (await endedAt(owner))!;
    expect(ended - lastBeat).toBeGreaterThanOrEqual(2_000);
    expect(ended - lastBeat).toBeLessThanOrEqual(2_000 + HEARTBEAT_EXPIRY_GRACE_MS + LOADED_MACHINE_MS);
    for (const hash of mine) {
      const o = await eventually('cancelled', async () => {
        const row = await h.collections.orders.findOne({ order_hash: hash });
        return row?.status === 'CANCELLED' ? row : null;
      }, { timeoutMs: 20_000 });
      expect(o.status_reason).toBe('HEARTBEAT_EXPIRED');
    }
    expect(await statusOf(theirs)).toBe('OPEN');
    await saveHistory(h, heartbeatWorkflowId(owner), 'heartbeat-stored-beats-expired.json');
    worker.worker.shutdown();
    await worker.done;
  });

  test('when two API processes take a wallet\'s beats in turn, then their stored beats compose and keep the switch armed; a beat after it expired arms a new run', async () => {
    const worker = await h.startWorker();
    const owner = wallet();
    const { mine } = await restingOrders(owner);
    const a = apiSwitch();
    const b = apiSwitch();
    await a.dms.beat(owner, 2);
    for (let i = 0; i < 10; i++) {
      await sleep(400);
      await (i % 2 ? a : b).dms.beat(owner, 2);
    }
    // One arm from each process, none per beat.
    expect([...a.signals, ...b.signals]).toHaveLength(2);
    for (const hash of mine) expect(await statusOf(hash)).toBe('OPEN');
    const handle = h.client.workflow.getHandle(heartbeatWorkflowId(owner));
    const firstRun = (await handle.describe()).runId;
    expect(await handle.result()).toBe('EXPIRED');
    for (const hash of mine) await eventually('cancelled', async () => (await statusOf(hash)) === 'CANCELLED', { timeoutMs: 20_000 });
    await a.dms.beat(owner, 5);
    await eventually('a new run', async () => {
      const run = await h.client.workflow.getHandle(heartbeatWorkflowId(owner)).describe();
      return run.runId !== firstRun && run.status.name === 'RUNNING';
    }, { timeoutMs: 10_000 });
    await a.dms.beat(owner, 0);
    worker.worker.shutdown();
    await worker.done;
  });

  test('when the switch is disarmed, then it ends and the orders stay open past the timeout', async () => {
    const worker = await h.startWorker();
    const owner = wallet();
    const { mine } = await restingOrders(owner);
    const { dms } = apiSwitch();
    await dms.beat(owner, 1);
    expect(await dms.beat(owner, 0)).toEqual({ armed: false, expires_at: null });
    expect(await h.client.workflow.getHandle(heartbeatWorkflowId(owner)).result()).toBe('DISARMED');
    expect(await endedAt(owner)).toEqual(expect.any(Number));
    await sleep(1_500 + HEARTBEAT_EXPIRY_GRACE_MS);
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
    await apiSwitch().dms.beat(owner, 2);
    // The run has taken the heartbeat (its timer is started) before the worker goes away.
    await eventually('timer started', async () => (await h.client.workflow.getHandle(heartbeatWorkflowId(owner)).fetchHistory()).events!.some((e) => e.timerStartedEventAttributes), { timeoutMs: 10_000 });
    first.worker.shutdown();
    await first.done;
    await sleep(3_000 + HEARTBEAT_EXPIRY_GRACE_MS);
    for (const hash of mine) expect(await statusOf(hash)).toBe('OPEN');
    second.start();
    for (const hash of mine) await eventually('cancelled after restart', async () => (await statusOf(hash)) === 'CANCELLED', { timeoutMs: 30_000 });
    expect(await h.client.workflow.getHandle(heartbeatWorkflowId(owner)).result()).toBe('EXPIRED');
  });
});
