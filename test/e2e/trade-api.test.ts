/**
 * The /trade API on the embedded stack, wired as `npm start` wires it: a platform key; a CLOB trade
 * through POST /trade whose typed data, signed by the wallet and posted to POST /v1/orders, matches
 * and settles; the wallet's own transactions saved (one CONFIRMED, one REVERTED) with every status
 * on its `user` channel; resolution; a redeem that pays what POST /trade/redeem said; positions.
 */
import { io as connectSocket } from 'socket.io-client';
import { createPublicClient, createWalletClient, defineChain, http, type Address, type Hex } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { collateralAbi, conditionalTokensAbi } from '../../src/chain/generated';
import { createMarketModel, type MarketRecord } from '../../src/db/models';
import { tradeTxWorkflowId } from '../../src/temporal/trade-tx.client';
import { eventually } from '../helpers/eventually';
import { useTradingStack, type TradableMarket } from '../helpers/trading-stack';

const E18 = 10n ** 18n;
const SETTLED = { timeoutMs: 90_000 };

describe('the /trade API on the embedded chain', () => {
  const stack = useTradingStack('tradee2e');

  it('when a wallet trades, saves its transactions and redeems through /trade, then the chain, the records and its user channel agree', async () => {
    const { api, chain, port, temporal, call, jwtFor } = stack();
    const [, alice, bob] = chain.accounts;
    const client = createPublicClient({ transport: http(chain.rpcUrl) });
    const bobWallet = createWalletClient({ account: privateKeyToAccount(bob.privateKey), chain: defineChain({ id: 56, name: 'local', nativeCurrency: { name: 'BNB', symbol: 'BNB', decimals: 18 }, rpcUrls: { default: { http: [chain.rpcUrl] } } }), transport: http(chain.rpcUrl) });
    const key = (await call('POST', '/admin/platform-keys', { admin: true, body: { name: 'wallet app' } })).body;
    const platform = { 'fs-platform-key': key.key_id, 'fs-platform-secret': key.secret };
    const created = await call('POST', '/admin/markets', { admin: true, body: { question: 'Will the trade API settle?', end_date: '2030-01-01T00:00:00Z', fee_rate_bps: 100 } });
    expect(created.status).toBe(201);
    const market = created.body as TradableMarket & { condition_id: Hex; collateral_token: Address; conditional_tokens_address: Address };
    const yes = BigInt(market.tokens.find((t) => t.outcome === 1)!.token_id);
    for (const trader of [alice, bob]) await port.fundWallet(trader.address, 100n * E18, { privateKey: trader.privateKey });
    const collateralOf = (a: Address) => client.readContract({ address: market.collateral_token, abi: collateralAbi, functionName: 'balanceOf', args: [a] });
    const tokenOf = (a: Address, id: bigint) => client.readContract({ address: market.conditional_tokens_address, abi: conditionalTokensAbi, functionName: 'balanceOf', args: [a, id] });

    // Bob's private channel, for the saved transactions' statuses.
    const bobJwt = await jwtFor(bob.address);
    const wsToken = (await call('POST', '/v1/auth/ws-token', { jwt: bobJwt })).body.token as string;
    const socket = connectSocket(api.url, { path: '/v1/ws', transports: ['websocket'], reconnection: false, forceNew: true, auth: { token: wsToken } });
    const events: { type: string; trade_tx?: Record<string, unknown> }[] = [];
    socket.on('user', (event: (typeof events)[number]) => events.push(event));
    await new Promise<void>((resolve, reject) => {
      socket.once('connect', () => resolve());
      socket.once('connect_error', reject);
    });
    expect(await socket.timeout(5_000).emitWithAck('subscribe', { channel: 'user' })).toEqual({ ok: true });

    // 1. Alice rests BUY NO @0.40 x10: an ask of YES at 0.60.
    const { item: aliceItem } = stack().signedItem(alice, market, { side: 'BUY', outcome: 0, price: '0.4', size: '10' });
    expect((await call('POST', '/v1/orders', { jwt: await jwtFor(alice.address), body: { orders: [aliceItem] } })).body.results[0].status).toBe('OPEN');
    await eventually('ask on the book', async () => (await call('GET', `/v1/markets/${market.condition_id}/book`)).body.asks?.length > 0, SETTLED);

    // 2. Bob spends 3.02 on YES through POST /trade: 5 shares at 0.60 plus a fee of 1% x 0.40 x 5.
    const trade = await call('POST', '/trade', { headers: platform, body: { chain_id: 56, condition_id: market.condition_id, wallet: bob.address, outcome: 1, side: 'BUY', amount: '3.02' } });
    expect(trade.status).toBe(200);
    expect(trade.body.quote).toMatchObject({ kind: 'CLOB', expected_shares: '5', average_price: '0.6', fee: '0.02' });
    expect(trade.body.order).toMatchObject({ order_type: 'MARKET', size: '5', price: '0.6', nonce: '0' });
    const typed = trade.body.typed_data;
    const message = Object.fromEntries(Object.entries(typed.message as Record<string, string | number>).map(([k, v]) => [k, ['maker', 'signer', 'taker'].includes(k) ? v : BigInt(v)]));
    const signature = await privateKeyToAccount(bob.privateKey).signTypedData({ domain: typed.domain, types: typed.types, primaryType: 'Order', message });
    const placed = await call('POST', '/v1/orders', { jwt: bobJwt, body: { orders: [{ ...trade.body.order, signature }] } });
    expect(placed.body.results[0]).toMatchObject({ status: 'OPEN' });
    const bobHash = placed.body.results[0].order_hash as string;
    await eventually('bob filled', async () => (await call('GET', `/v1/orders/${bobHash}`, { jwt: bobJwt })).body.status === 'FILLED', SETTLED);
    expect(await tokenOf(bob.address, yes)).toBe(5n * E18);
    expect(await collateralOf(bob.address)).toBe(100n * E18 - 3n * E18 - (2n * E18) / 100n);

    // 3. Bob's own transactions, saved: one that succeeds, one that reverts.
    const approve = await bobWallet.writeContract({ address: market.conditional_tokens_address, abi: conditionalTokensAbi, functionName: 'setApprovalForAll', args: [market.ctf_exchange_address, true] });
    const early = await bobWallet.writeContract({ address: market.conditional_tokens_address, abi: conditionalTokensAbi, functionName: 'redeemPositions', args: [market.collateral_token, market.condition_id], gas: 200_000n });
    const save = (hash: Hex, wallet: Address) => call('POST', '/trade/save', { headers: platform, body: { chain_id: 56, tx_hash: hash, wallet } });
    expect((await save(approve, bob.address)).body).toMatchObject({ status: 'PENDING', tx_hash: approve, wallet: bob.address.toLowerCase() });
    expect((await save(early, bob.address)).status).toBe(202);
    expect((await save(approve, alice.address)).body.code).toBe('IDEMPOTENCY_CONFLICT');
    const ended = (hash: Hex) => eventually(`saved ${hash}`, async () => {
      const r = (await call('GET', `/trade/save/${hash}?chain_id=56`)).body;
      return r.status !== 'PENDING' && r;
    }, SETTLED);
    const confirmed = await ended(approve);
    expect(confirmed).toMatchObject({ status: 'CONFIRMED', block_number: expect.any(String), events: [expect.objectContaining({ contract: 'conditional_tokens', name: 'ApprovalForAll' })] });
    expect((await ended(early))).toMatchObject({ status: 'REVERTED', status_reason: null });
    expect(await temporal.client.workflow.getHandle(tradeTxWorkflowId(56, approve)).result()).toBe('CONFIRMED');
    expect((await save(approve, bob.address)).body).toEqual(confirmed);
    await eventually('trade_tx events', () => events.filter((e) => e.type === 'trade_tx').length >= 4, SETTLED);
    const story = (hash: Hex) => events.filter((e) => e.trade_tx?.tx_hash === hash).map((e) => e.trade_tx!.status);
    expect(story(approve)).toEqual(['PENDING', 'CONFIRMED']);
    expect(story(early)).toEqual(['PENDING', 'REVERTED']);

    // 4. Positions read the chain: Bob holds 5 YES bought at 0.60.
    const active = (await call('GET', `/trade/positions?wallet=${bob.address}`)).body.data;
    expect(active).toEqual([expect.objectContaining({ condition_id: market.condition_id, kind: 'CLOB', outcome: 1, size: '5', avg_price: '0.6', redeemable: false })]);

    // 5. Resolution (YES), then the redeem call pays what it said.
    const record = await createMarketModel(stack().db).findOne({ condition_id: market.condition_id }).lean<MarketRecord>().exec();
    expect((await call('POST', '/trade/redeem', { headers: platform, body: { chain_id: 56, condition_id: market.condition_id, wallet: bob.address } })).body.code).toBe('MARKET_NOT_RESOLVED');
    await port.reportPayouts(record!.question_id as Hex, 1);
    expect((await call('POST', `/admin/markets/${market.condition_id}/status?chain_id=56`, { admin: true, body: { status: 'RESOLVED', resolution_outcome: 1 } })).status).toBe(200);
    const resolved = (await call('GET', `/trade/positions?wallet=${bob.address}&status=resolved`)).body.data;
    expect(resolved).toEqual([expect.objectContaining({ outcome: 1, size: '5', current_value: '5', redeemable: true })]);
    const redeem = (await call('POST', '/trade/redeem', { headers: platform, body: { chain_id: 56, condition_id: market.condition_id, wallet: bob.address } })).body;
    expect(redeem.payout).toBe('5');
    const before = await collateralOf(bob.address);
    const sent = await bobWallet.sendTransaction({ to: redeem.tx.to, data: redeem.tx.data, value: 0n });
    expect((await client.waitForTransactionReceipt({ hash: sent })).status).toBe('success');
    expect((await collateralOf(bob.address)) - before).toBe(5n * E18);
    expect((await call('GET', `/trade/positions?wallet=${bob.address}&status=all`)).body.data).toEqual([]);
    socket.disconnect();
  }, 240_000);
});
