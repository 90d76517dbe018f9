import type { Socket as NetSocket } from 'node:net';
import type { Socket as ClientSocket } from 'socket.io-client';
import type { RealtimeEvent, RealtimePublisher } from '../../src/ports/realtime-publisher';
import { gatewayCuts } from '../../src/metrics/metrics';
import { useTestDatabase } from '../helpers/test-database';
import {
  BookWriter, CHAIN_ID, ClientBook, connected, eventually, GatewayServer, newPublisher, request, seedMarket, serversPerTest,
} from './gateway-harness';

/** The client's TCP socket: pausing it makes a consumer that stops reading, as a stalled app would. */
function tcpOf(socket: ClientSocket): NetSocket {
  return (socket.io.engine as unknown as { transport: { ws: { _socket: NetSocket } } }).transport.ws._socket;
}

const PAD = 'x'.repeat(100 * 1024);

/** Publishes `count` large trades (100 KB each): far more than loopback TCP buffers hold. */
async function floodTrades(publisher: RealtimePublisher, condition_id: string, count: number): Promise<void> {
  for (let i = 0; i < count; i += 10) {
    // Each batch is 1 MB of log rows.
    const batch: RealtimeEvent[] = [];
    for (let j = i; j < Math.min(count, i + 10); j += 1) {
      batch.push({ channel: 'trades', chain_id: CHAIN_ID, condition_id, payload: { trade_id: `t${j}`, condition_id, chain_id: CHAIN_ID, price: '0.5', size: '1', created_at: new Date().toISOString(), pad: PAD } });
    }
    await publisher.publish(batch);
  }
}

/** predex_gateway_disconnects_total{reason="SLOW_CONSUMER"} so far. */
const slowConsumerCuts = async () => (await gatewayCuts.get()).values.find((v) => v.labels.reason === 'SLOW_CONSUMER')?.value ?? 0;

describe('realtime gateway: slow consumers and heartbeats', () => {
  const { db } = useTestDatabase('gw_bp');
  let publisher: RealtimePublisher;
  const { start, attempt, cleanUp } = serversPerTest(db);
  const open = async (server: GatewayServer) => {
    const socket = attempt(server);
    await connected(socket);
    return socket;
  };

  beforeAll(() => {
    publisher = newPublisher(db());
  });
  afterEach(cleanUp);

  it('when a trades subscriber stops reading, then its queue stays bounded and it is cut with SLOW_CONSUMER', async () => {
    const server = await start({ limits: { softBufferedPackets: 8, maxBufferedPackets: 32, killGraceMs: 60_000 } });
    const cutsBefore = await slowConsumerCuts();
    const market = await seedMarket(db());
    const socket = await open(server);
    let trades = 0;
    const goodbye: unknown[] = [];
    let reason: string | undefined;
    socket.on('trades', () => (trades += 1));
    socket.on('gateway_error', (m: unknown) => goodbye.push(m));
    socket.on('disconnect', (r: string) => (reason = r));
    await request(socket, 'subscribe', { channel: 'trades', condition_id: market });
    tcpOf(socket).pause();

    let peak = 0;
    let flooded = 0;
    const watch = setInterval(() => (peak = Math.max(peak, server.gateway.stats().maxBufferedPackets)), 5);
    try {
      // Flood until the gateway cuts the socket (how much the kernel absorbs first varies).
      while (server.gateway.stats().connections > 0) {
        if (flooded >= 1_000) throw new Error('slow consumer never cut');
        await floodTrades(publisher, market, 50);
        flooded += 50;
        await new Promise((r) => setTimeout(r, 50));
      }
    } finally {
      clearInterval(watch);
    }
    // The limit is checked at each burst's start: past it by one push at most (the flood's 50 trades).
    expect(peak).toBeLessThanOrEqual(32 + 50);
    expect(server.gateway.stats()).toMatchObject({ connections: 0, subscriptions: 0, routes: 0 });

    tcpOf(socket).resume();
    await eventually(() => reason !== undefined, 15_000, 'client sees the disconnect');
    expect(goodbye).toEqual([{ code: 'SLOW_CONSUMER', message: expect.stringContaining('reads too slowly') }]);
    expect(reason).toBe('io server disconnect');
    expect(trades).toBeLessThan(flooded);
    expect((await slowConsumerCuts()) - cutsBefore).toBe(1);
  });

  it('when a book subscriber falls behind, then its stale deltas are dropped and it gets a fresh snapshot that matches the stored book', async () => {
    const server = await start({ limits: { softBufferedPackets: 4, maxBufferedPackets: 100_000 } });
    const market = await seedMarket(db());
    const writer = new BookWriter(db(), publisher, market);
    await writer.step([{ side: 'bid', ticks: 20, units: 1_000_000n }]);
    const socket = await open(server);
    const book = new ClientBook(socket, market);
    await request(socket, 'subscribe', { channel: 'book', condition_id: market });
    await request(socket, 'subscribe', { channel: 'trades', condition_id: market });
    await eventually(() => book.snapshots === 1, 5_000, 'snapshot');
    tcpOf(socket).pause();

    // Flood until the socket's queue is past the soft limit (how much the kernel absorbs varies).
    let flooded = 0;
    const backedUp = async () => {
      await new Promise((r) => setTimeout(r, 50));
      return server.gateway.stats().maxBufferedPackets > 4;
    };
    while (!(await backedUp())) {
      if (process.env.BP_DEBUG) process.stderr.write(`flooded=${flooded} stats=${JSON.stringify(server.gateway.stats())} tcpPaused=${String(tcpOf(socket).isPaused())} readable=${tcpOf(socket).readableLength}\n`);
      if (flooded >= 1_000) throw new Error('socket never backed up');
      await floodTrades(publisher, market, 50);
      flooded += 50;
    }
    const head = server.gateway.stats().eventsSeen + 20;
    for (let i = 0; i < 20; i += 1) await writer.step([{ side: 'ask', ticks: 60 + i, units: BigInt(1_000_000 + i) }, { side: 'bid', ticks: 20, units: BigInt(2_000_000 + i) }]);
    await eventually(() => server.gateway.stats().eventsSeen >= head, 10_000, 'deltas reached the gateway');

    tcpOf(socket).resume();
    await eventually(() => book.seq === writer.seq, 15_000, 'client caught up');
    expect(book.snapshots).toBeGreaterThanOrEqual(2);
    expect(book.deltas).toBeLessThan(20);
    expect(book.faults).toEqual([]);
    expect(book.view()).toEqual(writer.expected());
    expect(socket.connected).toBe(true);
  });

  it('when a client sends subscribe messages faster than allowed, then the excess is answered RATE_LIMITED and the connection is closed', async () => {
    const server = await start({ limits: { messageBurst: 5, messagesPerSecond: 1 } });
    const market = await seedMarket(db());
    const socket = await open(server);
    const goodbye: unknown[] = [];
    let reason: string | undefined;
    socket.on('gateway_error', (m: unknown) => goodbye.push(m));
    socket.on('disconnect', (r: string) => (reason = r));
    for (let i = 0; i < 5; i += 1) expect(await request(socket, 'subscribe', { channel: 'ticker', condition_id: market })).toEqual({ ok: true });
    expect(await request(socket, 'subscribe', { channel: 'trades', condition_id: market })).toEqual({ ok: false, error: { code: 'RATE_LIMITED', message: expect.any(String) } });
    await eventually(() => reason !== undefined, 5_000, 'disconnect');
    expect(goodbye).toEqual([{ code: 'RATE_LIMITED', message: expect.any(String) }]);
    expect(reason).toBe('io server disconnect');
    await eventually(() => server.gateway.stats().connections === 0, 5_000, 'session gone');
  });

  it('when the API process shuts down while a client has stopped reading, then shutdown does not wait for that client', async () => {
    const server = await start({ limits: { shutdownGraceMs: 200 } });
    const socket = await open(server);
    tcpOf(socket).pause();
    const started = Date.now();
    await server.close();
    expect(Date.now() - started).toBeLessThan(3_000);
  });

  it('when a client stops answering heartbeats, then the server drops it', async () => {
    const server = await start({ socketOptions: { pingInterval: 100, pingTimeout: 100 } });
    const socket = await open(server);
    expect(server.gateway.stats().connections).toBe(1);
    const tcp = tcpOf(socket);
    tcp.pause();
    const started = Date.now();
    await eventually(() => server.gateway.stats().connections === 0, 3_000, 'dead client dropped');
    expect(Date.now() - started).toBeLessThan(2_000);
    // The dead client's TCP connection goes too (else closing the server waits 30 s for its close handshake).
    tcp.destroy();
  });
});
