import type { Socket as ClientSocket } from 'socket.io-client';
import { liveNodes } from '../../src/gateway/node-registry';
import { PUSH_PATH } from '../../src/gateway/push-receiver';
import { useTestDatabase } from '../helpers/test-database';
import { BookWriter, client, ClientBook, connected, eventually, GatewayServer, newPublisher, request, seedMarket, startGatewayServer } from './gateway-harness';

describe('realtime gateway: fan-out between processes', () => {
  const { db } = useTestDatabase('gw_fan');
  const servers: GatewayServer[] = [];
  const sockets: ClientSocket[] = [];
  afterEach(async () => {
    for (const s of sockets.splice(0)) s.disconnect();
    for (const s of servers.splice(0)) await s.close();
  });

  it('when an API process starts and stops, then it appears in and leaves the registry workers read', async () => {
    const server = await startGatewayServer(db());
    expect(await liveNodes(db())).toHaveLength(1);
    await server.close();
    expect(await liveNodes(db())).toHaveLength(0);
  });

  it('when a push carries a wrong or no secret, then the API process refuses it and delivers nothing', async () => {
    const server = await startGatewayServer(db());
    servers.push(server);
    const [node] = await liveNodes(db());
    const body = JSON.stringify({ events: [{ channel: 'user', wallet: '0x1', payload: { type: 'order', order: {} } }] });
    for (const authorization of [undefined, 'Bearer wrong', `Bearer ${node.secret}x`]) {
      const res = await fetch(`${node.url}${PUSH_PATH}`, { method: 'POST', body, headers: authorization ? { authorization } : {} });
      expect(res.status).toBe(401);
    }
    expect(server.gateway.stats().eventsSeen).toBe(0);
    const ok = await fetch(`${node.url}${PUSH_PATH}`, { method: 'POST', body, headers: { authorization: `Bearer ${node.secret}` } });
    expect(ok.status).toBe(204);
    expect(server.gateway.stats().eventsSeen).toBe(1);
  });

  it.each(['push', 'log'] as const)('when fanout is %s and two API processes serve one market, then both rebuild the stored book', async (fanout) => {
    const first = await startGatewayServer(db(), { fanout });
    const second = await startGatewayServer(db(), { fanout });
    servers.push(first, second);
    const publisher = newPublisher(db(), fanout);
    const market = await seedMarket(db());
    const writer = new BookWriter(db(), publisher, market);
    await writer.step([{ side: 'bid', ticks: 30, units: 5_000_000n }]);
    const books: ClientBook[] = [];
    for (const server of [first, second]) {
      const socket = client(server.api);
      sockets.push(socket);
      await connected(socket);
      books.push(new ClientBook(socket, market));
      expect(await request(socket, 'subscribe', { channel: 'book', condition_id: market })).toEqual({ ok: true });
    }
    await eventually(() => books.every((b) => b.snapshots === 1), 5_000, 'snapshots');
    for (let i = 0; i < 10; i += 1) await writer.step([{ side: 'ask', ticks: 70 + i, units: BigInt(1_000_000 * (i + 1)) }, { side: 'bid', ticks: 30, units: BigInt(i) * 100_000n }]);
    await eventually(() => books.every((b) => b.seq === writer.seq), 5_000, 'both caught up');
    for (const book of books) {
      expect(book.faults).toEqual([]);
      expect(book.view()).toEqual(writer.expected());
    }
  });
});
