/** NodeLiveness: API processes timed by the reader's own clock, never against the writer's. */
import { NodeLiveness } from '../../src/gateway/node-liveness';
import { HEARTBEAT_MS, STALE_AFTER_MS, type RealtimeNode } from '../../src/gateway/node-registry';

const row = (id: string, beatMs: number): RealtimeNode => ({ _id: id, url: `http://${id}`, secret: 's', started_at: new Date(0), heartbeat_at: new Date(beatMs) });

describe('node liveness', () => {
  it('when an API machine\'s clock runs 30 s behind the reader\'s, then its process stays live while it beats, and is dropped 15 s (reader\'s clock) after its last beat', () => {
    let now = 1_000_000;
    const liveness = new NodeLiveness(() => now);
    const skew = -30_000;
    let beat = now + skew;
    // First sight: the old comparison says stale (30 s old by the reader's clock).
    expect(liveness.live([row('api', beat)])).toEqual([]);
    for (let i = 0; i < 5; i++) {
      now += HEARTBEAT_MS;
      beat += HEARTBEAT_MS;
      expect(liveness.live([row('api', beat)]).map((n) => n._id)).toEqual(['api']);
    }
    // It stops beating: live until STALE_AFTER_MS of the reader's clock since the change was seen.
    now += STALE_AFTER_MS - 1;
    expect(liveness.live([row('api', beat)]).map((n) => n._id)).toEqual(['api']);
    now += 1;
    expect(liveness.live([row('api', beat)])).toEqual([]);
  });

  it('when a machine\'s clock runs ahead, then a dead process\'s row (its heartbeat looking recent) is dropped 15 s after the reader first saw it', () => {
    let now = 2_000_000;
    const liveness = new NodeLiveness(() => now);
    const dead = row('gone', now + 60_000); // written by a clock a minute ahead, never again
    expect(liveness.live([dead]).map((n) => n._id)).toEqual(['gone']);
    now += STALE_AFTER_MS;
    expect(liveness.live([dead])).toEqual([]);
  });

  it('when a row leaves the registry and comes back with the same heartbeat, then it is timed afresh (as first seen)', () => {
    let now = 3_000_000;
    const liveness = new NodeLiveness(() => now);
    expect(liveness.live([row('a', now)]).length).toBe(1);
    expect(liveness.live([])).toEqual([]);
    now += STALE_AFTER_MS * 2;
    expect(liveness.live([row('a', now - STALE_AFTER_MS * 2)])).toEqual([]);
  });
});
