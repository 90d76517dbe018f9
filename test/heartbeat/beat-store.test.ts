import { createHeartbeatStore, heartbeatsCollection } from '../../src/heartbeat/beat-store';
import { useTestDatabase } from '../helpers/test-database';

describe('heartbeats store', () => {
  const { db } = useTestDatabase('heartbeats');

  test('when two API processes write a wallet\'s beats out of order, then the latest is kept', async () => {
    const first = createHeartbeatStore(heartbeatsCollection(db()));
    const second = createHeartbeatStore(heartbeatsCollection(db()));
    const [a, b, c] = ['0x000000000000000000000000000000000000000a', '0x000000000000000000000000000000000000001a', '0x000000000000000000000000000000000000000c'];
    await first.recordBeats(new Map([[a, 2_000], [b, 1_000]]));
    await second.recordBeats(new Map([[a, 1_500], [b, 3_000]]));
    await Promise.all([first.recordBeats(new Map([[a, 2_400]])), second.recordBeats(new Map([[a, 2_300]]))]);
    expect(await first.lastBeatOf(a)).toBe(2_400);
    expect(await second.lastBeatOf(b)).toBe(3_000);
    expect(await first.lastBeatOf(c)).toBeNull();
  });

  test('when a run has ended, then its beat is gone, the write of a later beat answers its end (an earlier end never overwrites it), and arming clears the end', async () => {
    const store = createHeartbeatStore(heartbeatsCollection(db()));
    const [d, e] = ['0x00000000000000000000000000000000000000d1', '0x00000000000000000000000000000000000000e1'];
    await store.recordBeats(new Map([[d, 4_500]]));
    await store.markEnded(d, 5_000);
    await store.markEnded(d, 4_000);
    expect(await store.lastBeatOf(d)).toBeNull();
    const ended = await store.recordBeats(new Map([[d, 6_000], [e, 6_000]]));
    expect([...ended]).toEqual([[d, 5_000]]);
    expect(await store.lastBeatOf(d)).toBe(6_000);
    await store.markArmed(d);
    expect([...await store.recordBeats(new Map([[d, 7_000]]))]).toEqual([]);
  });

  test('when 1,000 wallets beat, then a flush is one update per bucket', async () => {
    const store = createHeartbeatStore(heartbeatsCollection(db()));
    const wallets = Array.from({ length: 1_000 }, (_, i) => `0x${i.toString(16).padStart(40, '0')}`);
    await store.recordBeats(new Map(wallets.map((w, i) => [w, 10_000 + i])));
    expect(await heartbeatsCollection(db()).countDocuments({ _id: { $regex: '^bucket-' } })).toBe(16);
    for (const i of [0, 1, 500, 999]) expect(await store.lastBeatOf(wallets[i])).toBe(10_000 + i);
  });
});
