/**
 * Ordered push lanes (src/gateway/push-lanes.ts) through the worker's push publisher: publishes
 * that nobody awaits reach every API process in publish order, what is published while a push is
 * in flight goes out together, and a slow process holds up only its own lane.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { RealtimeEvent } from '../../src/ports/realtime-publisher';
import { NODES_COLLECTION, registerNode, type NodeRegistration, type RealtimeNode } from '../../src/gateway/node-registry';
import { createPushPublisher } from '../../src/gateway/push-publisher';
import { PushLane, pushBodies } from '../../src/gateway/push-lanes';
import { MAX_PUSH_BYTES } from '../../src/gateway/push-receiver';
import { useTestDatabase } from '../helpers/test-database';
import { logger } from './gateway-harness';

/** An API process's push endpoint that answers each push after `delay.ms`, recording what came. */
async function fakeProcess(delayMs: number): Promise<{ server: Server; url: string; pushes: number[][]; answeredAt: number[]; delay: { ms: number } }> {
  const pushes: number[][] = [];
  const answeredAt: number[] = [];
  const delay = { ms: delayMs };
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const { events } = JSON.parse(Buffer.concat(chunks).toString('utf8')) as { events: { payload: { n: number } }[] };
      pushes.push(events.map((e) => e.payload.n));
      setTimeout(() => {
        answeredAt.push(Date.now());
        res.statusCode = 204;
        res.end();
      }, delay.ms);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, pushes, answeredAt, delay };
}

const event = (n: number) => ({ channel: 'ticker', chain_id: 56, condition_id: '0x01', payload: { n } }) as unknown as RealtimeEvent;

describe('realtime push lanes', () => {
  const { db } = useTestDatabase('gw_lanes');
  const registrations: NodeRegistration[] = [];
  const servers: Server[] = [];
  afterEach(async () => {
    for (const r of registrations.splice(0)) await r.stop();
    for (const s of servers.splice(0)) await new Promise((resolve) => s.close(resolve));
  });

  it('when events are published without waiting, then each process gets them in publish order, batched while a push is in flight, and a slow process does not hold up a fast one', async () => {
    const fast = await fakeProcess(0);
    const slow = await fakeProcess(300);
    servers.push(fast.server, slow.server);
    // The registry stores the push secret; the fake endpoints accept any.
    registrations.push(await registerNode(db(), fast.url, logger), await registerNode(db(), slow.url, logger));
    const publisher = createPushPublisher(db(), logger);

    await Promise.all(Array.from({ length: 30 }, (_, n) => publisher.publish([event(n)])));

    const expected = Array.from({ length: 30 }, (_, n) => n);
    expect(fast.pushes.flat()).toEqual(expected);
    expect(slow.pushes.flat()).toEqual(expected);
    // One push in flight per process: the slow one got the first event alone, then the rest together.
    expect(slow.pushes).toEqual([[0], expected.slice(1)]);
    // The fast process had everything before the slow one answered its first push.
    expect(Math.max(...fast.answeredAt)).toBeLessThan(slow.answeredAt[0]);
  });

  it('when a process does not answer, then it is left out after one timed-out push until its next heartbeat, and the others get every event', async () => {
    const fast = await fakeProcess(0);
    const stuck = await fakeProcess(1_000);
    servers.push(fast.server, stuck.server);
    registrations.push(await registerNode(db(), fast.url, logger));
    // The stuck process's row without a heartbeat timer: the test beats for it.
    const rows = db().collection<RealtimeNode>(NODES_COLLECTION);
    const stuckId = `stuck-${Date.now()}`;
    await rows.insertOne({ _id: stuckId, url: stuck.url, secret: 's', started_at: new Date(), heartbeat_at: new Date() });
    try {
      const publisher = createPushPublisher(db(), logger, { timeoutMs: 200, nodesTtlMs: 0 });
      // One publish after another, as a market's steps wait for the previous step's delivery.
      for (let n = 0; n < 10; n++) await publisher.publish([event(n)]);
      expect(fast.pushes.flat()).toEqual(Array.from({ length: 10 }, (_, n) => n));
      expect(stuck.pushes).toEqual([[0]]);

      stuck.delay.ms = 0;
      await rows.updateOne({ _id: stuckId }, { $set: { heartbeat_at: new Date(Date.now() + 1_000) } });
      await publisher.publish([event(10)]);
      expect(stuck.pushes).toEqual([[0], [10]]);
    } finally {
      await rows.deleteOne({ _id: stuckId });
    }
  });

  it('when one publish is larger than a push may be, then it goes as several pushes within the bound, every event once, in order', async () => {
    const bodies: string[] = [];
    const lane = new PushLane(async (body) => void bodies.push(body), () => undefined, 2_000);
    const events = Array.from({ length: 50 }, (_, n) => ({ ...event(n), payload: { n, pad: 'x'.repeat(100) } }) as unknown as RealtimeEvent);
    await lane.deliver(events);
    expect(bodies.length).toBeGreaterThan(1);
    for (const body of bodies) expect(Buffer.byteLength(body)).toBeLessThanOrEqual(2_000);
    const got = bodies.flatMap((b) => (JSON.parse(b) as { events: { payload: { n: number } }[] }).events.map((e) => e.payload.n));
    expect(got).toEqual(Array.from({ length: 50 }, (_, n) => n));
  });

  it('when the events fit, then they go as one body, as JSON.stringify({events}) writes it', () => {
    const events = [event(1), event(2)];
    expect(pushBodies(events, MAX_PUSH_BYTES)).toEqual([JSON.stringify({ events })]);
    expect(pushBodies([], MAX_PUSH_BYTES)).toEqual([JSON.stringify({ events: [] })]);
  });
});
