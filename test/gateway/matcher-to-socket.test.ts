import { NativeConnection, Worker } from '@temporalio/worker';
import { Client, Connection } from '@temporalio/client';
import type { Socket as ClientSocket } from 'socket.io-client';
import { createActivities } from '../../activities';
import { createRealtimePublisher } from '../../src/gateway';
import { createBookSnapshotReader } from '../../src/gateway/book-snapshot';
import { ensureMatchingIndexes, matchingCollections } from '../../src/matching/collections';
import { createMarketMatcherClient } from '../../src/temporal/market-matcher.client';
import { useTestDatabase } from '../helpers/test-database';
import { testTemporalAddress, uniqueTaskQueue } from '../helpers/test-temporal';
import { startSettlementWorker } from '../helpers/settlement-worker';
import { FakeChain, insertMarket, newMarket, persist, wallet as newWallet, D } from '../workflows/market-harness';
import { client, ClientBook, connected, eventually, GatewayServer, issueWsToken, logger, request, startGatewayServer, wsTokenDeps } from './gateway-harness';
import { testWorkflowBundle } from '../helpers/workflow-bundle';

/**
 * The whole path: orders handed to the real market workflow, whose activities (in a worker with
 * the real publisher) write the book and publish; the gateway delivers to real socket.io clients.
 */
describe('realtime gateway with the real matcher', () => {
  const { db } = useTestDatabase('gw_match');
  const taskQueue = uniqueTaskQueue('gw');
  let server: GatewayServer;
  let worker: Worker;
  let running: Promise<void>;
  let settlement: Awaited<ReturnType<typeof startSettlementWorker>> | undefined;
  let native: NativeConnection;
  let connection: Connection;
  let temporal: Client;
  const sockets: ClientSocket[] = [];

  beforeAll(async () => {
    await ensureMatchingIndexes(matchingCollections(db()));
    server = await startGatewayServer(db());
    native = await NativeConnection.connect({ address: testTemporalAddress() });
    const chain = new FakeChain();
    chain.hold = true;
    const activities = createActivities({ db: db(), logger, publisher: createRealtimePublisher({ db: db(), logger }), chain, chainPollMs: 50 });
    worker = await Worker.create({
      connection: native, taskQueue, shutdownGraceTime: '500ms',
      workflowBundle: await testWorkflowBundle(),
      activities,
    });
    settlement = await startSettlementWorker(native, taskQueue, activities);
    running = worker.run();
    connection = await Connection.connect({ address: testTemporalAddress() });
    temporal = new Client({ connection });
  });
  afterAll(async () => {
    for (const s of sockets) s.disconnect();
    if (worker?.getState() === 'RUNNING') worker.shutdown();
    if (settlement?.worker.getState() === 'RUNNING') settlement.worker.shutdown();
    await running?.catch(() => undefined);
    await settlement?.done.catch(() => undefined);
    await native?.close();
    await connection?.close();
    await server?.close();
  });

  it('when orders rest and match, then book subscribers rebuild the stored book and each wallet sees only its own order changes', async () => {
    const market = newMarket();
    await insertMarket(db(), market);
    const matcher = createMarketMatcherClient(temporal, taskQueue);
    const [alice, bob] = [newWallet(), newWallet()];

    const watcher = client(server.api);
    sockets.push(watcher);
    await connected(watcher);
    const book = new ClientBook(watcher, market.condition_id);
    expect(await request(watcher, 'subscribe', { channel: 'book', condition_id: market.condition_id, chain_id: market.chain_id })).toEqual({ ok: true });
    await eventually(() => book.snapshots === 1, 5_000, 'empty snapshot');

    const userEvents: Record<string, { type: string; order?: { order_hash: string; status: string }; fill?: { order_hash: string } }[]> = { [alice]: [], [bob]: [] };
    for (const owner of [alice, bob]) {
      const { token } = await issueWsToken(wsTokenDeps(db()), owner);
      const socket = client(server.api, token);
      sockets.push(socket);
      socket.on('user', (m: (typeof userEvents)[string][number]) => userEvents[owner].push(m));
      await connected(socket);
      expect(await request(socket, 'subscribe', { channel: 'user' })).toEqual({ ok: true });
    }

    const sells = await persist(db(), market, [
      { wallet: alice, side: 'SELL', price: 60, size: '10' },
      { wallet: alice, side: 'SELL', price: 62, size: '3' },
    ]);
    await matcher.submit(market, sells.map((o) => o.order_hash));
    const [buy] = await persist(db(), market, [{ wallet: bob, side: 'BUY', price: 61, size: '4' }]);
    await matcher.submit(market, [buy.order_hash]);

    const stored = async () => createBookSnapshotReader(db()).read(market, D);
    await eventually(async () => (await stored()).seq >= 3 && book.seq === (await stored()).seq, 30_000, 'book caught up');
    const snapshot = await stored();
    expect(book.faults).toEqual([]);
    expect(book.view()).toEqual({ bids: snapshot.bids, asks: snapshot.asks });
    expect(book.view()).toEqual({ bids: [], asks: [{ price: '0.6', remainingSize: '6' }, { price: '0.62', remainingSize: '3' }] });

    await eventually(() => userEvents[bob].some((e) => e.type === 'order' && e.order?.status === 'MATCHED'), 10_000, 'bob sees his match');
    await eventually(() => userEvents[alice].some((e) => e.type === 'order' && e.order?.order_hash === sells[0].order_hash && e.order.status === 'PARTIALLY_FILLED'), 10_000, 'alice sees her partial fill');
    const mine = (owner: string, hashes: string[]) =>
      userEvents[owner].every((e) => hashes.includes((e.order ?? e.fill)?.order_hash ?? ''));
    expect(mine(alice, sells.map((o) => o.order_hash))).toBe(true);
    expect(mine(bob, [buy.order_hash])).toBe(true);
    expect(userEvents[bob].some((e) => e.type === 'fill')).toBe(true);
    // Per order, statuses only move forward.
    const rank = ['OPEN', 'PARTIALLY_FILLED', 'MATCHED', 'FILLED'];
    for (const owner of [alice, bob]) {
      const last = new Map<string, number>();
      for (const e of userEvents[owner].filter((x) => x.type === 'order')) {
        const r = rank.indexOf(e.order!.status);
        expect(r).toBeGreaterThanOrEqual(last.get(e.order!.order_hash) ?? 0);
        last.set(e.order!.order_hash, r);
      }
    }
  });
});
