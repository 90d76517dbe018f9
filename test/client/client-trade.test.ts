/**
 * A whole trade through the client only: two wallets log in with API keys, one rests a bid, the
 * other crosses it, and the book delta, the fills, the user events and the settlement are all seen
 * through the client's own calls and subscriptions. On an AMM market the client quotes, buys from
 * and sells to the pool with a wallet client, and sees each saved transaction CONFIRMED.
 */
import { createWalletClient, http } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { createPredexClient, PredexError, type BookView, type PoolTradeProgress, type PredexClient, type UserEvent } from '../../src/client';
import { eventually } from '../helpers/eventually';
import { useClientStack } from './client-stack';

/** Settlement on the embedded chain can take a minute on a loaded machine. */
const WAIT = { timeoutMs: 60_000 };

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
    await eventually('the book snapshot', () => books[0], WAIT);

    const bid = await alice.orders.place({ market, side: 'BUY', outcome: 'YES', price: '0.6', size: '10', client_order_id: 'alice-1' });
    expect(bid).toMatchObject({ status: 'OPEN', price: '0.6', size: '10' });
    await eventually('the bid in a book delta', () => books.find((b) => b.bids.some((l) => l.price === '0.6' && l.remainingSize === '10')), WAIT);

    // BUY NO at 0.45 is an ask at YES 0.55: it crosses the bid and both pay collateral (a mint).
    const take = await bob.orders.place({ market, side: 'BUY', outcome: 'NO', price: '0.45', size: '4' });
    await eventually('the bid shrunk to 6 in a delta', () => books.find((b) => b.bids.some((l) => l.price === '0.6' && l.remainingSize === '6')), WAIT);
    const settled = await bob.orders.waitFor(take.order_hash, { timeoutMs: 90_000 });
    expect(settled).toMatchObject({ status: 'FILLED', remaining_size: '0' });

    const fills = await eventually('alice sees her fill confirmed', async () => {
      const page = await alice.fills.list();
      return page.data.find((f) => f.order_hash === bid.order_hash && f.settlement_status === 'CONFIRMED') ? page : undefined;
    }, WAIT);
    expect(fills.data[0]).toMatchObject({ role: 'maker', price: '0.6', size: '4' });
    await eventually('alice\'s fill on her user channel', () => aliceEvents.find((e) => e.type === 'fill'), WAIT);
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

  it('when a wallet buys from and sells to an AMM pool through the client, then each saved transaction is CONFIRMED and the position follows', async () => {
    const s = stack();
    const [market, trader, platform] = await Promise.all([s.ammMarket(), s.trader(5), s.platformKey()]);
    const client = createPredexClient({ baseUrl: s.url, ...platform });
    clients.push(client);
    const wallet = createWalletClient({ account: privateKeyToAccount(trader.privateKey), transport: http(s.chain.rpcUrl) });

    const listed = await client.trade.markets({ kind: 'amm' });
    expect(listed.data.map((m) => [m.condition_id, m.kind, m.status])).toContainEqual([market, 'AMM', 'OPEN']);
    const quote = await client.trade.quote({ market, side: 'BUY', outcome: 'YES', amount: '10' });
    expect(quote).toMatchObject({ kind: 'AMM', side: 'BUY', outcome: 1, amount: '10' });
    expect(Number(quote.expected_shares)).toBeGreaterThan(10);
    expect(quote.block_number).not.toBeNull();

    const steps: PoolTradeProgress['stage'][] = [];
    const bought = await client.trade.throughPool(wallet, { market, side: 'BUY', outcome: 'YES', amount: '10' }, { onProgress: (p) => steps.push(p.stage) });
    expect(bought.approvals).toHaveLength(1);
    expect(bought.saved).toMatchObject({ status: 'CONFIRMED', tx_hash: bought.tx_hash, wallet: trader.address.toLowerCase() });
    expect(steps).toEqual(['approval', 'sent', 'saved', 'saved']);
    expect(await client.trade.saved(bought.tx_hash)).toMatchObject({ status: 'CONFIRMED', condition_ids: [market] });
    const held = (await client.trade.positions(trader.address)).data.find((p) => p.condition_id === market && p.outcome === 1);
    // Nobody else trades this pool: the shares are the trade's quote, to the wei.
    expect(held?.size).toBe(bought.trade.quote.expected_shares);

    const half = (Number(held!.size) / 2).toFixed(6);
    const sold = await client.trade.throughPool(wallet, { market, side: 'SELL', outcome: 1, amount: half, slippage_bps: 200 });
    expect(sold.approvals).toHaveLength(1); // the pool's setApprovalForAll for the outcome tokens
    expect(sold.saved.status).toBe('CONFIRMED');
    const left = (await client.trade.positions(trader.address)).data.find((p) => p.condition_id === market && p.outcome === 1);
    expect(Number(left?.size)).toBeLessThan(Number(held!.size));
    expect(Number(left?.size)).toBeGreaterThanOrEqual(Number(held!.size) - Number(half));
  }, 180_000);
});
