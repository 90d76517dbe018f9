/**
 * The client's /trade calls as HTTP (paths at the root, platform headers only where the route
 * takes them, the server's error codes) and its check of a pool transaction before a wallet sends it.
 */
import { createWalletClient, custom, encodeFunctionData, parseAbi, type Hex } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { checkPoolTx, createPredexClient, poolBound, PredexError, type TradeResponse } from '../../src/client';

const POOL = '0x00000000000000000000000000000000000000aa';
const OTHER = '0x00000000000000000000000000000000000000bb';
const MARKET = `0x${'c'.repeat(64)}`;
const E18 = 10n ** 18n;
const abi = parseAbi([
  'function buy(uint256 investmentAmount, uint256 outcomeIndex, uint256 minOutcomeTokensToBuy)',
  'function sell(uint256 returnAmount, uint256 outcomeIndex, uint256 maxOutcomeTokensToSell)',
  'function approve(address spender, uint256 amount) returns (bool)',
]);

function recordingFetch(answer: (url: string) => { status: number; body: unknown }) {
  const calls: { url: string; method: string; headers: Record<string, string>; body?: unknown }[] = [];
  const fetchFn = (async (url: string, init: RequestInit) => {
    calls.push({ url, method: init.method ?? 'GET', headers: init.headers as Record<string, string>, body: init.body ? JSON.parse(init.body as string) : undefined });
    const { status, body } = answer(url);
    return new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });
  }) as unknown as typeof fetch;
  return { calls, fetchFn };
}

describe('the client\'s /trade routes', () => {
  it('when a platform route is called, then it goes to the root path with the platform headers, and a public one with none', async () => {
    const { calls, fetchFn } = recordingFetch(() => ({ status: 200, body: { ok: true } }));
    const client = createPredexClient({ baseUrl: 'http://x/', fetch: fetchFn, platformKey: 'pk', platformSecret: 'ps', apiKey: 'k', apiSecret: 's' });
    await client.trade.quote({ market: MARKET, side: 'BUY', outcome: 'YES', amount: '10' });
    await client.trade.trade({ market: MARKET, side: 'SELL', outcome: 'NO', amount: '2.5', wallet: OTHER, slippage_bps: 50 });
    await client.trade.saved('0xabc');
    await client.trade.redeem({ market: MARKET, wallet: OTHER });
    await client.trade.positions(OTHER, { status: 'all' });
    expect(calls.map((c) => `${c.method} ${c.url}`)).toEqual([
      'POST http://x/trade/quote', 'POST http://x/trade', 'GET http://x/trade/save/0xabc?chain_id=56', 'POST http://x/trade/redeem',
      `GET http://x/trade/positions?chain_id=56&status=all&wallet=${OTHER}`,
    ]);
    expect(calls[3]).toMatchObject({ body: { chain_id: 56, condition_id: MARKET, wallet: OTHER }, headers: { 'fs-platform-key': 'pk' } });
    expect(calls[0].body).toEqual({ chain_id: 56, condition_id: MARKET, outcome: 1, side: 'BUY', amount: '10' });
    expect(calls[1].body).toEqual({ chain_id: 56, condition_id: MARKET, outcome: 0, side: 'SELL', amount: '2.5', wallet: OTHER, slippage_bps: 50 });
    expect(calls[1].headers).toMatchObject({ 'fs-platform-key': 'pk', 'fs-platform-secret': 'ps' });
    for (const call of [calls[0], calls[2], calls[4]]) expect(Object.keys(call.headers).filter((h) => h.startsWith('fs-'))).toEqual([]);
  });

  it('when a platform route is called without a platform key, then AUTH_MISSING is thrown before any request', async () => {
    const { calls, fetchFn } = recordingFetch(() => ({ status: 200, body: {} }));
    const client = createPredexClient({ baseUrl: 'http://x', fetch: fetchFn, apiKey: 'k', apiSecret: 's' });
    await expect(client.trade.save({ tx_hash: '0x1', wallet: OTHER })).rejects.toMatchObject({ code: 'AUTH_MISSING', status_code: 0 });
    expect(calls).toEqual([]);
  });

  it('when a pool trade is asked on an order-book market, then CLIENT_INPUT is thrown and the wallet sends nothing', async () => {
    const { fetchFn } = recordingFetch(() => ({ status: 200, body: { kind: 'CLOB', quote: {}, typed_data: {}, order: {} } }));
    const sent: string[] = [];
    const wallet = createWalletClient({
      account: privateKeyToAccount(`0x${'1'.repeat(64)}`),
      transport: custom({ request: ({ method }: { method: string }) => Promise.reject(new Error(`sent ${sent.push(method)}`)) }),
    });
    const client = createPredexClient({ baseUrl: 'http://x', fetch: fetchFn, platformKey: 'pk', platformSecret: 'ps' });
    await expect(client.trade.throughPool(wallet, { market: MARKET, side: 'BUY', outcome: 'YES', amount: '1' })).rejects.toMatchObject({ code: 'CLIENT_INPUT' });
    expect(sent).toEqual([]);
  });

  it('when the server refuses, then the PredexError carries its code, status and correlation id', async () => {
    const { fetchFn } = recordingFetch(() => ({ status: 422, body: { code: 'MARKET_NOT_ACTIVE', message: 'Market is SEEDING', status_code: 422, correlation_id: 'c-1', path: '/trade/quote' } }));
    const failure = await createPredexClient({ baseUrl: 'http://x', fetch: fetchFn }).trade.quote({ market: MARKET, side: 'BUY', outcome: 1, amount: '1' }).catch((e: unknown) => e);
    expect(failure).toBeInstanceOf(PredexError);
    expect(failure).toMatchObject({ code: 'MARKET_NOT_ACTIVE', status_code: 422, correlation_id: 'c-1' });
  });
});

describe('the check of a pool transaction', () => {
  const quote = (fields: Partial<TradeResponse['quote']>): TradeResponse['quote'] => ({
    kind: 'AMM', chain_id: 56, condition_id: MARKET, outcome: 1, side: 'BUY', amount: '10', average_price: '0.5', price_before: '0.5', price_after: '0.52',
    price_impact_bps: 10, fee: '0.1', block_number: '7', ...fields,
  });
  const response = (data: Hex, fields: Partial<TradeResponse> = {}, q: Partial<TradeResponse['quote']> = {}): TradeResponse =>
    ({ kind: 'AMM', quote: quote(q), tx: { chain_id: 56, to: POOL, data, value: '0' }, approvals: [], ...fields });
  const buy = { side: 'BUY' as const, outcome: 1 as const, amount: '10', slippage_bps: 100, chain_id: 56 };

  it('when the bound is computed, then BUY keeps (1 - slippage) of the quoted shares and SELL allows (1 + slippage) of the shares, rounded down', () => {
    expect(poolBound(buy, quote({ expected_shares: '19.000000000000000001' }), 18)).toBe((19n * E18 + 1n) * 9900n / 10_000n);
    expect(poolBound({ side: 'SELL', amount: '5', slippage_bps: 250 }, quote({ side: 'SELL' }), 18)).toBe(5_125n * 10n ** 15n);
    expect(poolBound({ side: 'SELL', amount: '0.000000000000000003', slippage_bps: 5000 }, quote({ side: 'SELL' }), 18)).toBe(4n);
  });

  it('when the transaction is the trade asked for, then it passes', () => {
    const data = encodeFunctionData({ abi, functionName: 'buy', args: [10n * E18, 1n, 18_810n * 10n ** 15n] });
    const approve = { to: OTHER, data: encodeFunctionData({ abi, functionName: 'approve', args: [POOL, 10n * E18] }) };
    expect(() => checkPoolTx(buy, response(data, { approvals: [approve] }, { expected_shares: '19' }), 18)).not.toThrow();
    const sell = encodeFunctionData({ abi, functionName: 'sell', args: [4_200n * 10n ** 15n, 0n, 5_050n * 10n ** 15n] });
    expect(() => checkPoolTx({ ...buy, side: 'SELL', outcome: 0, amount: '5' }, response(sell, {}, { side: 'SELL', outcome: 0, expected_collateral: '4.2' }), 18)).not.toThrow();
  });

  it.each([
    ['another outcome', encodeFunctionData({ abi, functionName: 'buy', args: [10n * E18, 0n, 18_810n * 10n ** 15n] }), {}],
    ['a lower minimum', encodeFunctionData({ abi, functionName: 'buy', args: [10n * E18, 1n, 1n] }), {}],
    ['a larger spend', encodeFunctionData({ abi, functionName: 'buy', args: [11n * E18, 1n, 18_810n * 10n ** 15n] }), {}],
    ['a sell', encodeFunctionData({ abi, functionName: 'sell', args: [10n * E18, 1n, 18_810n * 10n ** 15n] }), {}],
    ['an approval to another spender', encodeFunctionData({ abi, functionName: 'buy', args: [10n * E18, 1n, 18_810n * 10n ** 15n] }),
      { approvals: [{ to: OTHER, data: encodeFunctionData({ abi, functionName: 'approve', args: [OTHER, 10n * E18] }) }] }],
    ['a value', encodeFunctionData({ abi, functionName: 'buy', args: [10n * E18, 1n, 18_810n * 10n ** 15n] }), { tx: { chain_id: 56, to: POOL, data: '0x', value: '1' } }],
  ])('when the transaction has %s, then it is refused as BAD_RESPONSE', (_what, data, fields) => {
    const refused = (() => {
      try {
        checkPoolTx(buy, response(data, fields as Partial<TradeResponse>, { expected_shares: '19' }), 18);
      } catch (error) {
        return error;
      }
      return undefined;
    })();
    expect(refused).toMatchObject({ code: 'BAD_RESPONSE' });
  });
});
