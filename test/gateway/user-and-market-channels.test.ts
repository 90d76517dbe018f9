import type { Socket as ClientSocket } from 'socket.io-client';
import type { DeliveredEvent, RealtimePublisher } from '../../src/ports/realtime-publisher';
import { useTestDatabase } from '../helpers/test-database';
import {
  CHAIN_ID, client, connected, eventually, GatewayServer, issueWsToken, newPublisher, request, seedMarket, startGatewayServer, wallet, wsTokenDeps,
} from './gateway-harness';

const STATUSES = ['OPEN', 'PARTIALLY_FILLED', 'MATCHED', 'FILLED'];

function orderEvent(owner: string, hash: string, status: string): DeliveredEvent {
  return { channel: 'user', wallet: owner, payload: { type: 'order', order: { order_hash: hash, status, condition_id: '0x', chain_id: CHAIN_ID } } };
}

function fillEvent(owner: string, trade: string, settlement_status: string): DeliveredEvent {
  return { channel: 'user', wallet: owner, payload: { type: 'fill', fill: { trade_id: trade, settlement_status, tx_hash: '' } } };
}

describe('realtime gateway: user, ticker and trades channels', () => {
  const { db } = useTestDatabase('gw_user');
  let server: GatewayServer;
  let publisher: RealtimePublisher;
  const sockets: ClientSocket[] = [];

  async function userSocket(owner: string, subscribe = true): Promise<{ socket: ClientSocket; received: unknown[] }> {
    const { token } = await issueWsToken(wsTokenDeps(db()), owner);
    const socket = client(server.api, token);
    sockets.push(socket);
    const received: unknown[] = [];
    socket.on('user', (message: unknown) => received.push(message));
    await connected(socket);
    if (subscribe) expect(await request(socket, 'subscribe', { channel: 'user' })).toEqual({ ok: true });
    return { socket, received };
  }

  beforeAll(async () => {
    server = await startGatewayServer(db());
    publisher = newPublisher(db());
  });
  afterEach(() => {
    for (const s of sockets.splice(0)) s.disconnect();
  });
  afterAll(async () => {
    await server?.close();
  });

  it('when one push carries more events for a wallet than a connection may have queued (a market maker\'s orders cancelled at a close), then a client that reads them all gets them all and is not cut', async () => {
    const owner = wallet();
    const { socket, received } = await userSocket(owner);
    const errors: unknown[] = [];
    socket.on('gateway_error', (m: unknown) => errors.push(m));
    const events = Array.from({ length: 1_500 }, (_, i) => orderEvent(owner, `0x${i.toString(16).padStart(64, '0')}`, 'CANCELLED'));
    await publisher.publish(events); // one push: past the 1,024 queued packets of the default limit
    await eventually(() => received.length === 1_500, 15_000, 'every event received');
    expect(received).toEqual(events.map((e) => e.payload));
    expect(errors).toEqual([]);
    expect(socket.connected).toBe(true);
  });

  it('when an order\'s or a fill\'s event comes after one of a later state (another worker\'s lane was behind), then the client does not get the stale one', async () => {
    const owner = wallet();
    const { received } = await userSocket(owner);
    const at = (status: string, remaining_size: string) => ({ channel: 'user' as const, wallet: owner, payload: { type: 'order' as const, order: { order_hash: '0xa1', status, size: '2', remaining_size } } });
    // Settlement's lane delivers FILLED before the step's lane delivers MATCHED; a fill's MINED comes after its CONFIRMED.
    await publisher.publish([at('PARTIALLY_FILLED', '1'), at('FILLED', '0')]);
    await publisher.publish([at('MATCHED', '0'), fillEvent(owner, 't1', 'CONFIRMED'), fillEvent(owner, 't1', 'MINED'), at('FILLED', '0')]);
    await eventually(() => received.length === 4, 10_000, 'the news received');
    await new Promise((r) => setTimeout(r, 200));
    expect(received.map((m) => {
      const p = m as { type: string; order?: { status: string }; fill?: { settlement_status: string } };
      return p.order?.status ?? p.fill?.settlement_status;
    })).toEqual(['PARTIALLY_FILLED', 'FILLED', 'CONFIRMED', 'FILLED']);
  });

  it('when orders of two wallets change, then each wallet gets every change of its own orders, in order, and never the other wallet\'s', async () => {
    const [alice, bob] = [wallet(), wallet()];
    const a = await userSocket(alice);
    const b = await userSocket(bob);
    const a2 = await userSocket(alice); // a second connection of the same wallet gets the same stream
    const idle = await userSocket(alice, false); // authenticated but not subscribed: nothing

    const expectedA: unknown[] = [];
    const expectedB: unknown[] = [];
    const batch: DeliveredEvent[] = [];
    for (const status of STATUSES) {
      for (const [owner, list] of [[alice, expectedA], [bob, expectedB]] as const) {
        for (const n of [1, 2]) {
          const event = orderEvent(owner, `0x${owner.slice(2, 8)}${n}`, status);
          batch.push(event);
          list.push(event.payload);
        }
      }
    }
    // Interleave separate publishes with a batch, as different activities would.
    await publisher.publish(batch.slice(0, 5));
    for (const event of batch.slice(5, 9)) await publisher.publish([event]);
    await publisher.publish(batch.slice(9));
    for (const status of ['PENDING', 'MINED', 'CONFIRMED']) {
      const fa = fillEvent(alice.toUpperCase().replace('0X', '0x'), 't-1', status); // checksummed-style wallet still routes
      const fb = fillEvent(bob, 't-1', status);
      await publisher.publish([fa, fb]);
      expectedA.push(fa.payload);
      expectedB.push(fb.payload);
    }

    await eventually(() => a.received.length >= expectedA.length && b.received.length >= expectedB.length && a2.received.length >= expectedA.length, 5_000, 'user events');
    await new Promise((r) => setTimeout(r, 100)); // anything extra would have arrived by now
    expect(a.received).toEqual(expectedA);
    expect(a2.received).toEqual(expectedA);
    expect(b.received).toEqual(expectedB);
    expect(idle.received).toEqual([]);
  });

  it('when the user channel is unsubscribed, then no more user events arrive', async () => {
    const owner = wallet();
    const a = await userSocket(owner);
    await publisher.publish([orderEvent(owner, '0x1', 'OPEN')]);
    await eventually(() => a.received.length === 1, 5_000, 'first event');
    expect(await request(a.socket, 'unsubscribe', { channel: 'user' })).toEqual({ ok: true });
    await publisher.publish([orderEvent(owner, '0x1', 'CANCELLED')]);
    const b = await userSocket(owner);
    await publisher.publish([orderEvent(owner, '0x2', 'OPEN')]);
    await eventually(() => b.received.length === 1, 5_000, 'event on the other socket');
    expect(a.received).toHaveLength(1);
  });

  it('when tickers and trades are published, then subscribers of that market get them in the REST shapes, and not other markets\'', async () => {
    const [x, y] = [await seedMarket(db()), await seedMarket(db())];
    const socket = client(server.api);
    sockets.push(socket);
    const tickers: unknown[] = [];
    const trades: unknown[] = [];
    socket.on('ticker', (m: unknown) => tickers.push(m));
    socket.on('trades', (m: unknown) => trades.push(m));
    await connected(socket);
    expect(await request(socket, 'subscribe', { channel: 'ticker', condition_id: x, chain_id: CHAIN_ID })).toEqual({ ok: true });
    expect(await request(socket, 'subscribe', { channel: 'trades', condition_id: x, chain_id: CHAIN_ID })).toEqual({ ok: true });
    const ticker = (condition_id: string, last: string) => ({
      condition_id, chain_id: CHAIN_ID, best_bid: '0.4', best_ask: '0.6', last_price: last, spread: '0.2', display_price_yes: last, display_price_no: '0.5', timestamp: new Date().toISOString(),
    });
    const trade = (condition_id: string, id: string) => ({ trade_id: id, condition_id, chain_id: CHAIN_ID, price: '0.55', size: '10', created_at: new Date().toISOString() });
    await publisher.publish([
      { channel: 'ticker', chain_id: CHAIN_ID, condition_id: y, payload: ticker(y, '0.1') },
      { channel: 'trades', chain_id: CHAIN_ID, condition_id: x, payload: trade(x, 't1') },
      { channel: 'trades', chain_id: CHAIN_ID, condition_id: y, payload: trade(y, 't2') },
      { channel: 'ticker', chain_id: CHAIN_ID, condition_id: x, payload: ticker(x, '0.55') },
      { channel: 'trades', chain_id: CHAIN_ID, condition_id: x, payload: trade(x, 't3') },
    ]);
    await eventually(() => tickers.length === 1 && trades.length === 2, 5_000, 'market events');
    await new Promise((r) => setTimeout(r, 100));
    expect(tickers).toEqual([expect.objectContaining({ condition_id: x, last_price: '0.55' })]);
    expect(trades.map((t) => (t as { trade_id: string }).trade_id)).toEqual(['t1', 't3']);
    expect(Object.keys(trades[0] as object).sort()).toEqual(['chain_id', 'condition_id', 'created_at', 'price', 'size', 'trade_id']);
  });
});
