import type { HeartbeatStore } from '../../src/heartbeat/beat-store';
import { createDeadManSwitch, HEARTBEAT_FLUSH_MS, type SwitchSignals } from '../../src/heartbeat/dead-man-switch';
import { HEARTBEAT_EXPIRY_GRACE_MS } from '../../workflows/heartbeat.workflow';

/** A store in memory that counts its commands, as FerretDB would answer them. */
function countingStore() {
  const beatAt = new Map<string, number>();
  const endedAt = new Map<string, number>();
  const counts = { writes: 0, beatsWritten: 0 };
  let failNext = false;
  const store: HeartbeatStore = {
    async recordBeats(beats) {
      if (failNext) {
        failNext = false;
        throw new Error('store down');
      }
      counts.writes += 1;
      counts.beatsWritten += beats.size;
      for (const [w, at] of beats) beatAt.set(w, Math.max(beatAt.get(w) ?? 0, at));
      return new Map([...beats.keys()].filter((w) => endedAt.has(w)).map((w) => [w, endedAt.get(w)!]));
    },
    lastBeatOf: async (w) => beatAt.get(w) ?? null,
    markEnded: async (w, at) => void endedAt.set(w, at),
    markArmed: async (w) => void endedAt.delete(w),
  };
  return { store, beatAt, endedAt, counts, failOnce: () => { failNext = true; } };
}

function countingSignals() {
  const sent: [string, number][] = [];
  const signals: SwitchSignals = {
    arm: async (w, t) => void sent.push([w, t]),
    disarm: async (w) => void sent.push([w, 0]),
  };
  return { signals, sent };
}

const wallets = Array.from({ length: 10 }, (_, i) => `0x${String(i).padStart(40, '0')}`);

describe('dead-man switch, API side', () => {
  let now = 1_000_000;
  const clock = () => now;

  test('then a beat is stored well within the expiry grace', () => {
    expect(HEARTBEAT_FLUSH_MS * 2).toBeLessThanOrEqual(HEARTBEAT_EXPIRY_GRACE_MS);
  });

  test('when 1,000 beats of 10 wallets arrive, then 10 arm signals go out and each flush is one store write holding each wallet\'s last beat', async () => {
    const { store, beatAt, counts } = countingStore();
    const { signals, sent } = countingSignals();
    const dms = createDeadManSwitch({ signals, store, clock, flushMs: 60_000 });
    for (let i = 0; i < 1_000; i++) {
      now += 1;
      const answer = await dms.beat(wallets[i % 10], 30);
      expect(answer).toEqual({ armed: true, expires_at: new Date(now + 30_000).toISOString() });
      if (i % 100 === 99) await dms.flush();
    }
    await dms.close();
    expect(sent).toEqual(wallets.map((w) => [w, 30]));
    expect(counts.writes).toBe(10);
    expect(counts.beatsWritten).toBe(100);
    expect(beatAt.get(wallets[9])).toBe(now);
  });

  test('when the run this process armed ends, then a beat after the end arms again and a beat from before it does not', async () => {
    const { store, endedAt } = countingStore();
    const { signals, sent } = countingSignals();
    const dms = createDeadManSwitch({ signals, store, clock, flushMs: 60_000 });
    const [a, b] = wallets;
    await dms.beat(a, 10);
    await dms.beat(b, 10);
    await dms.flush();
    now += 100;
    // Both runs end (another process disarmed them); `a` beats after that end, `b`'s last beat was before it.
    endedAt.set(a, now - 50);
    endedAt.set(b, now + 50);
    await dms.beat(a, 10);
    await dms.beat(b, 10);
    expect(sent).toEqual([[a, 10], [b, 10]]);
    await dms.flush();
    expect(sent).toEqual([[a, 10], [b, 10], [a, 10]]);
    // `b` is no longer taken as armed here: its next beat arms at once.
    now += 100;
    await dms.beat(b, 10);
    expect(sent.at(-1)).toEqual([b, 10]);
    // An end older than this process's arm is a run before it: no signal.
    await dms.beat(a, 10);
    await dms.flush();
    expect(sent).toHaveLength(4);
    await dms.close();
  });

  test('when the timeout changes, then the switch is armed again with it; 0 disarms and drops the held beat', async () => {
    const { store, beatAt } = countingStore();
    const { signals, sent } = countingSignals();
    const dms = createDeadManSwitch({ signals, store, clock, flushMs: 60_000 });
    const [a] = wallets;
    await dms.beat(a, 30);
    await dms.beat(a, 5);
    await dms.beat(a, 5);
    expect(await dms.beat(a, 0)).toEqual({ armed: false, expires_at: null });
    await dms.flush();
    expect(sent).toEqual([[a, 30], [a, 5], [a, 0]]);
    expect(beatAt.has(a)).toBe(false);
    await dms.close();
  });

  test('when a store write fails, then its beats are written by the next flush', async () => {
    const { store, beatAt, failOnce } = countingStore();
    const { signals } = countingSignals();
    const dms = createDeadManSwitch({ signals, store, clock, flushMs: 60_000 });
    await dms.beat(wallets[0], 30);
    failOnce();
    await dms.flush();
    expect(beatAt.has(wallets[0])).toBe(false);
    await dms.flush();
    expect(beatAt.get(wallets[0])).toBe(now);
    await dms.close();
  });

  test('when a wallet has been quiet here past its deadline, then its next beat arms again', async () => {
    const { store } = countingStore();
    const { signals, sent } = countingSignals();
    const dms = createDeadManSwitch({ signals, store, clock, flushMs: 60_000 });
    await dms.beat(wallets[0], 5);
    now += 5_000 + HEARTBEAT_EXPIRY_GRACE_MS + 1;
    await dms.beat(wallets[1], 5);
    await dms.flush();
    await dms.beat(wallets[0], 5);
    expect(sent).toEqual([[wallets[0], 5], [wallets[1], 5], [wallets[0], 5]]);
    await dms.close();
  });
});
