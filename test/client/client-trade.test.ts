/**
 * A whole trade through the client only: two wallets log in with API keys, one rests a bid, the
 * other crosses it, and the book delta, the fills, the user events and the settlement are all seen
 * through the client's own calls and subscriptions.
 */
import { createPredexClient, PredexError, type BookView, type PredexClient, type UserEvent } from '../../src/client';
import { eventually, useClientStack } from './client-stack';

describe('the client against the running exchange', () => {
  const stack = useClientStack('client');
  const clients: PredexClient[] = [];
  afterAll(() => clients.forEach((c) => c.close()));

  async function loggedIn(i: number): Promise<PredexClient> {
    const s = stack();
    const trader = await s.trader(i);
    const keyMaker = createPredexClient({ baseUrl: s.url, jwt: await s.jwt(trader.address) });
    const key = await keyMaker.auth.createApiKey(['read', 'trade']);
    const client = createPredexClient({ baseUrl: s.url, apiKey: key.key_id, apiSecret: key.secret, privateKey: trader.privateKey });
    clients.push(client);
    return client;
  }

  it('when two wallets cross through the client, then the book delta, fills, user events and settlement are all seen', async () => {
    const market = stack().market;
    const [alice, bob] = await Promise.all([loggedIn(1), loggedIn(2)]);
    const listed = await alice.markets.list();
    expect(listed.data.map((m) => m.condition_id)).toContain(market);

    const books: BookView[] = [];
    const bookSub = await bob.subscribe.book(market, (book) => books.push(book));
    const aliceEvents: UserEvent[] = [];
    await alice.subscribe.user((event) => aliceEvents.push(event));
    await eventually('the book snapshot', () => books[0]);

    const bid = await alice.orders.place({ market, side: 'BUY', outcome: 'YES', price: '0.6', size: '10', client_order_id: 'alice-1' });
    expect(bid).toMatchObject({ status: 'OPEN', price: '0.6', size: '10' });
    await eventually('the bid in a book delta', () => books.find((b) => b.bids.some((l) => l.price === '0.6' && l.remainingSize === '10')));

    // BUY NO at 0.45 is an ask at YES 0.55: it crosses the bid and both pay collateral (a mint).
    const take = await bob.orders.place({ market, side: 'BUY', outcome: 'NO', price: '0.45', size: '4' });
    await eventually('the bid shrunk to 6 in a delta', () => books.find((b) => b.bids.some((l) => l.price === '0.6' && l.remainingSize === '6')));
    const settled = await bob.orders.waitFor(take.order_hash, { timeoutMs: 90_000 });
    expect(settled).toMatchObject({ status: 'FILLED', remaining_size: '0' });

    const fills = await eventually('alice sees her fill confirmed', async () => {
      const page = await alice.fills.list();
      return page.data.find((f) => f.order_hash === bid.order_hash && f.settlement_status === 'CONFIRMED') ? page : undefined;
    });
    expect(fills.data[0]).toMatchObject({ role: 'maker', price: '0.6', size: '4' });
    await eventually('alice\'s fill on her user channel', () => aliceEvents.find((e) => e.type === 'fill'));
    expect(aliceEvents.some((e) => e.type === 'order' && (e as { order: { status: string } }).order.status === 'PARTIALLY_FILLED')).toBe(true);

    const positions = await bob.positions.list();
    expect(positions.data.find((p) => p.condition_id === market)).toMatchObject({ outcome: 0, size: '4' });
    const balances = await alice.balances.get();
    expect(balances.collateral?.reserved).not.toBe('0');

    const cancelled = await alice.orders.cancel({ client_order_ids: ['alice-1'] });
    expect(cancelled.cancelled).toEqual([bid.order_hash]);
    await bookSub.close();
  }, 180_000);

  it('when the server refuses a request, then the client throws PredexError with the server\'s envelope', async () => {
    const alice = await loggedIn(1);
    const failure = await alice.orders.get(`0x${'0'.repeat(64)}`).catch((e: unknown) => e);
    expect(failure).toBeInstanceOf(PredexError);
    expect(failure).toMatchObject({ code: 'ORDER_NOT_FOUND', status_code: 404 });
    expect((failure as PredexError).correlation_id).not.toBe('local');
    const broke = await alice.orders.place({ market: stack().market, side: 'BUY', outcome: 1, price: '0.5', size: '100000' }).catch((e: unknown) => e);
    expect(broke).toMatchObject({ code: 'INSUFFICIENT_BALANCE' });
  }, 60_000);
});
