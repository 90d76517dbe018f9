/**
 * End to end on the embedded stack, wired exactly as `npm start` wires it (composeApi for the API
 * process, createActivities with the chain settlement and realtime publisher for the worker):
 * funded wallets trade over HTTP, the market workflow matches, settlement sends `matchOrders` to
 * the local chain, and every view of the result agrees, to the wei.
 */
import { io as connectSocket } from 'socket.io-client';
import { createPublicClient, http, type Address } from 'viem';
import { collateralAbi, conditionalTokensAbi } from '../../src/chain/generated';
import { chainPortFromConfig } from '../../src/runtime/chain-from-config';
import { eventually } from '../helpers/eventually';
import { useTradingStack, type TradableMarket } from '../helpers/trading-stack';
import { sampleSum } from '../helpers/metric-samples';

const E18 = 10n ** 18n;

interface MarketView extends TradableMarket {
  collateral_token: Address;
  conditional_tokens_address: Address;
}

/** How long a trade may take to settle on a loaded machine. */
const SETTLED = { timeoutMs: 90_000 };

describe('a trade from HTTP to the chain', () => {
  const stack = useTradingStack('e2e');

  it('when funded wallets mint and then transfer over HTTP, then the chain, the user channel, fills, orders, positions, book and ticker all agree', async () => {
    const { api, chain, config, call, jwtFor, signedItem } = stack();
    const [operator, alice, bob, carol] = chain.accounts;
    const client = createPublicClient({ transport: http(chain.rpcUrl) });
    const created = await call('POST', '/admin/markets', { admin: true, body: { question: 'Will the e2e test pass?', end_date: '2030-01-01T00:00:00Z', fee_rate_bps: 100 } });
    expect(created.status).toBe(201);
    const market = created.body as unknown as MarketView;
    const yes = BigInt(market.tokens.find((t) => t.outcome === 1)!.token_id);
    const no = BigInt(market.tokens.find((t) => t.outcome === 0)!.token_id);
    const port = chainPortFromConfig(config);
    for (const trader of [alice, bob, carol]) await port.fundWallet(trader.address, 100n * E18, { privateKey: trader.privateKey });
    const collateralOf = (a: Address) => client.readContract({ address: market.collateral_token, abi: collateralAbi, functionName: 'balanceOf', args: [a] });
    const tokenOf = (a: Address, id: bigint) => client.readContract({ address: market.conditional_tokens_address, abi: conditionalTokensAbi, functionName: 'balanceOf', args: [a, id] });
    const feesBefore = await collateralOf(operator.address);
    const scrape = async () => (await fetch(`${api.url}/metrics`)).text();
    const metricsBefore = await scrape();

    // Alice watches her private channel for the whole story.
    const aliceJwt = await jwtFor(alice.address);
    const wsToken = (await call('POST', '/v1/auth/ws-token', { jwt: aliceJwt })).body.token as string;
    const socket = connectSocket(api.url, { path: '/v1/ws', transports: ['websocket'], reconnection: false, forceNew: true, auth: { token: wsToken } });
    const events: { type: string; order?: Record<string, unknown>; fill?: Record<string, unknown> }[] = [];
    socket.on('user', (event: (typeof events)[number]) => events.push(event));
    await new Promise<void>((resolve, reject) => {
      socket.once('connect', () => resolve());
      socket.once('connect_error', reject);
    });
    expect(await socket.timeout(5_000).emitWithAck('subscribe', { channel: 'user' })).toEqual({ ok: true });

    // 1. Mint: Alice BUY YES @0.60 rests; Bob BUY NO @0.40 (= ask YES 0.60) crosses it.
    const aliceBuy = signedItem(alice, market, { side: 'BUY', outcome: 1, price: '0.6', size: '10' });
    const placed = await call('POST', '/v1/orders', { jwt: await jwtFor(alice.address), body: { orders: [aliceBuy.item] } });
    expect(placed.body.results[0]).toMatchObject({ order_hash: aliceBuy.hash, status: 'OPEN', fills: [], book_added_at: null });
    await eventually('alice on the book', async () => (await call('GET', `/v1/markets/${market.condition_id}/book`)).body.bids?.length > 0, SETTLED);
    const bobBuy = signedItem(bob, market, { side: 'BUY', outcome: 0, price: '0.4', size: '10' });
    expect((await call('POST', '/v1/orders', { jwt: await jwtFor(bob.address), body: { orders: [bobBuy.item] } })).body.results[0].status).toBe('OPEN');

    const filled = async (jwt: string, hash: string) => {
      const order = (await call('GET', `/v1/orders/${hash}`, { jwt })).body;
      return order.status === 'FILLED' ? order : undefined;
    };
    const bobJwt = await jwtFor(bob.address);
    await eventually('mint settled', () => filled(aliceJwt, aliceBuy.hash), SETTLED);
    await eventually('mint settled (bob)', () => filled(bobJwt, bobBuy.hash), SETTLED);

    // 2. Transfer: Alice SELL YES @0.70 x4 rests; Carol BUY YES @0.75 x4 takes it at 0.70.
    const aliceSell = signedItem(alice, market, { side: 'SELL', outcome: 1, price: '0.7', size: '4' });
    expect((await call('POST', '/v1/orders', { jwt: aliceJwt, body: { orders: [aliceSell.item] } })).body.results[0].status).toBe('OPEN');
    await eventually('ask on the book', async () => (await call('GET', `/v1/markets/${market.condition_id}/book`)).body.asks?.length > 0, SETTLED);
    const carolJwt = await jwtFor(carol.address);
    const carolBuy = signedItem(carol, market, { side: 'BUY', outcome: 1, price: '0.75', size: '4' });
    expect((await call('POST', '/v1/orders', { jwt: carolJwt, body: { orders: [carolBuy.item] } })).body.results[0].status).toBe('OPEN');
    await eventually('transfer settled', () => filled(aliceJwt, aliceSell.hash), SETTLED);
    await eventually('transfer settled (carol)', () => filled(carolJwt, carolBuy.hash), SETTLED);

    // On chain, to the wei. Fees: 1% of min(p, 1 - p) per share, each side.
    const mintFee = (10n * E18 * 40n * 100n) / 1_000_000n; // 0.04 each (min(0.6, 0.4) = 0.4)
    const transferFee = (4n * E18 * 30n * 100n) / 1_000_000n; // 0.012 each (min(0.7, 0.3) = 0.3)
    expect(await tokenOf(alice.address, yes)).toBe(6n * E18);
    expect(await tokenOf(bob.address, no)).toBe(10n * E18);
    expect(await tokenOf(carol.address, yes)).toBe(4n * E18);
    expect(await collateralOf(alice.address)).toBe(100n * E18 - 6n * E18 - mintFee + (28n * E18) / 10n - transferFee);
    expect(await collateralOf(bob.address)).toBe(100n * E18 - 4n * E18 - mintFee);
    expect(await collateralOf(carol.address)).toBe(100n * E18 - (28n * E18) / 10n - transferFee);
    expect((await collateralOf(operator.address)) - feesBefore).toBe(2n * mintFee + 2n * transferFee);

    // Fills: both sides, CONFIRMED with the transaction hash.
    const aliceFills = (await call('GET', '/v1/fills', { jwt: aliceJwt })).body.data as Record<string, unknown>[];
    expect(aliceFills).toHaveLength(2);
    for (const fill of aliceFills) expect(fill).toMatchObject({ settlement_status: 'CONFIRMED', tx_hash: expect.stringMatching(/^0x[0-9a-f]{64}$/) });
    expect(aliceFills.map((f) => [f.side, f.price, f.size, f.fee]).sort()).toEqual([
      ['BUY', '0.6', '10', '0.04'],
      ['SELL', '0.7', '4', '0.012'],
    ]);
    const carolFills = (await call('GET', '/v1/fills', { jwt: carolJwt })).body.data as Record<string, unknown>[];
    expect(carolFills).toEqual([expect.objectContaining({ role: 'taker', side: 'BUY', price: '0.7', size: '4', settlement_status: 'CONFIRMED' })]);

    // Orders read back terminal with nothing left; positions follow the fills.
    expect(await filled(carolJwt, carolBuy.hash)).toMatchObject({ remaining_size: '0', book_added_at: expect.any(String) });
    const positions = (await call('GET', '/v1/positions', { jwt: aliceJwt })).body.data as Record<string, unknown>[];
    expect(positions).toEqual([expect.objectContaining({ outcome: 1, size: '6', avg_price: '0.6', status: 'active' })]);

    // The user channel told Alice every transition of her orders and fills, in order, and nothing of anyone else's.
    await eventually('last pushes', async () => events.filter((e) => e.fill?.settlement_status === 'CONFIRMED').length >= 2, SETTLED);
    // The metrics moved as the trade did: four orders accepted, two steps with a trade each, two
    // trades' fills confirmed (four fills), latencies observed, chain calls and HTTP routes counted.
    const metricsAfter = await scrape();
    const moved = (name: string, labels: Record<string, string> = {}) => sampleSum(metricsAfter, name, labels) - sampleSum(metricsBefore, name, labels);
    expect(moved('predex_orders_total', { outcome: 'accepted' })).toBe(4);
    expect(moved('predex_http_requests_total', { method: 'POST', route: '/v1/orders', status: '200' })).toBe(4);
    expect(moved('predex_http_request_duration_seconds_count', { method: 'GET', route: '/v1/orders/{order_hash}' })).toBeGreaterThanOrEqual(4);
    expect(moved('predex_market_step_trades_total')).toBe(2);
    expect(moved('predex_market_steps_total')).toBeGreaterThanOrEqual(2);
    expect(moved('predex_order_post_to_matched_seconds_count')).toBe(2);
    expect(moved('predex_settlement_fills_total', { status: 'CONFIRMED' })).toBe(4);
    expect(moved('predex_fill_matched_to_settled_seconds_count', { status: 'CONFIRMED' })).toBe(4);
    expect(moved('predex_settlement_rounds_total', { attempt: 'first' })).toBeGreaterThanOrEqual(1);
    expect(moved('predex_settlement_rounds_total', { attempt: 'retry' })).toBe(0);
    expect(moved('predex_chain_rpc_requests_total', { outcome: 'ok' })).toBeGreaterThan(0);
    expect(moved('predex_activity_duration_seconds_count', { outcome: 'ok' })).toBeGreaterThan(0);
    expect(sampleSum(metricsAfter, 'predex_gateway_connections')).toBe(1);
    expect(sampleSum(metricsAfter, 'predex_gateway_subscriptions')).toBe(1);

    socket.disconnect();
    const story = (hash: string) =>
      events.filter((e) => e.type === 'order' && e.order?.order_hash === hash).map((e) => e.order!.status).filter((s, i, all) => i === 0 || s !== all[i - 1]);
    expect(story(aliceBuy.hash)).toEqual(['OPEN', 'MATCHED', 'FILLED']);
    expect(story(aliceSell.hash)).toEqual(['OPEN', 'MATCHED', 'FILLED']);
    const firstOpen = events.find((e) => e.order?.order_hash === aliceBuy.hash && e.order?.status === 'OPEN');
    expect(firstOpen?.order?.book_added_at).toEqual(expect.any(String));
    for (const hash of [aliceBuy.hash, aliceSell.hash]) {
      const settlement = events.filter((e) => e.type === 'fill' && e.fill?.order_hash === hash).map((e) => e.fill!.settlement_status);
      expect(settlement.filter((s, i, all) => i === 0 || s !== all[i - 1])).toEqual(['PENDING', 'MINED', 'CONFIRMED']);
    }
    const mine = new Set<string>([aliceBuy.hash, aliceSell.hash]);
    expect(events.every((e) => mine.has(String((e.order ?? e.fill)?.order_hash)))).toBe(true);

    // Public views: an empty book, the last price, and two settled prints.
    const book = (await call('GET', `/v1/markets/${market.condition_id}/book`)).body;
    expect([book.bids, book.asks]).toEqual([[], []]);
    const ticker = (await call('GET', `/v1/markets/${market.condition_id}/ticker`)).body;
    expect(ticker).toMatchObject({ last_price: '0.7' });
    const trades = (await call('GET', `/v1/markets/${market.condition_id}/trades`)).body.data as Record<string, unknown>[];
    expect(trades.map((t) => [t.price, t.size])).toEqual([
      ['0.7', '4'],
      ['0.6', '10'],
    ]);
    // The settled trades are in the day's candle (written beside the prints, as the fills confirm).
    const candles = await eventually('candles', async () => {
      const data = (await call('GET', `/v1/markets/${market.condition_id}/candles?interval=1d`)).body.data as Record<string, string>[];
      return data.reduce((sum, c) => sum + Number(c.volume), 0) === 14 ? data : undefined;
    }, SETTLED);
    expect(candles.map((c) => c.high).sort().at(-1)).toBe('0.7');
    expect(candles.map((c) => c.low).sort()[0]).toBe('0.6');
  }, 240_000);
});
