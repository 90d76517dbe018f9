/**
 * The /trade API on the embedded stack, wired as `npm start` wires it: a platform key; a CLOB trade
 * through POST /trade whose typed data, signed by the wallet and posted to POST /v1/orders, matches
 * and settles; the wallet's own transactions saved (one CONFIRMED, one REVERTED) with every status
 * on its `user` channel; resolution; a redeem that pays what POST /trade/redeem said; positions.
 */
import { NativeConnection, Worker } from '@temporalio/worker';
import { SignJWT } from 'jose';
import { io as connectSocket } from 'socket.io-client';
import { createPublicClient, createWalletClient, defineChain, http, type Address, type Hex } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { createActivities } from '../../activities';
import { startApiServer, type RunningApi } from '../../src/api/server';
import { startLocalChain, type LocalChain } from '../../src/chain';
import { collateralAbi, conditionalTokensAbi } from '../../src/chain/generated';
import { loadConfig } from '../../src/config';
import { createMarketModel, type MarketRecord } from '../../src/db/models';
import { freePort } from '../../src/embedded/free-port';
import { createRealtimePublisher } from '../../src/gateway';
import { createLogger } from '../../src/logging/logger';
import { chainPortFromConfig } from '../../src/runtime/chain-from-config';
import { composeApi, type ApiComposition } from '../../src/runtime/compose-api';
import { createChainSettlement } from '../../src/settlement/viem-settlement-port';
import { buildOrder, signOrder } from '../../src/signing';
import { connectTemporal, type TemporalHandle } from '../../src/temporal/connect';
import { tradeTxWorkflowId } from '../../src/temporal/trade-tx.client';
import { tradeTxChainOf } from '../../src/trade/trade-tx-chain';
import { useTestDatabase } from '../helpers/test-database';
import { testTemporalAddress, uniqueTaskQueue } from '../helpers/test-temporal';
import { startSettlementWorker } from '../helpers/settlement-worker';

const E18 = 10n ** 18n;
const SECRET = 'trade-e2e-jwt-secret-0123456789abcdef-0123';
const ADMIN = 'trade-e2e-admin-token-0123456789abcdef-0123';

async function eventually<T>(what: string, probe: () => Promise<T | undefined>, timeoutMs = 90_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 250));
  }
}

describe('the /trade API on the embedded chain', () => {
  const database = useTestDatabase('tradee2e');
  const logger = createLogger({ level: 'silent' });
  let chain: LocalChain;
  let temporal: TemporalHandle;
  let composition: ApiComposition;
  let api: RunningApi;
  let worker: Worker;
  let workerRun: Promise<void>;
  let settlement: Awaited<ReturnType<typeof startSettlementWorker>> | undefined;
  let port: ReturnType<typeof chainPortFromConfig>;

  beforeAll(async () => {
    chain = await startLocalChain({ port: await freePort(), chainId: 56, blockIntervalMs: 200 });
    const config = loadConfig({
      CHAIN_RPC_URL: chain.rpcUrl, OPERATOR_PRIVATE_KEY: chain.operatorKey, EXCHANGE_ADDRESS: chain.addresses.exchange,
      COLLATERAL_ADDRESS: chain.addresses.collateral, CONDITIONAL_TOKENS_ADDRESS: chain.addresses.conditionalTokens,
      CHAIN_CONFIRMATIONS: '1', TEMPORAL_TASK_QUEUE: uniqueTaskQueue('tradee2e'), AUTH_JWT_SECRET: SECRET,
      API_KEY_PEPPER: 'trade-e2e-pepper-0123456789abcdef-012345', ADMIN_TOKEN: ADMIN, LOG_LEVEL: 'silent',
    });
    const db = database.db();
    port = chainPortFromConfig(config);
    const native = await NativeConnection.connect({ address: testTemporalAddress() });
    const activities = createActivities({
      db, logger, chain: createChainSettlement(() => port, config.CHAIN_CONFIRMATIONS), publisher: createRealtimePublisher({ db, logger }),
      chainPollMs: 200, tradeTxChain: () => tradeTxChainOf(port), conditionChain: () => port,
    });
    worker = await Worker.create({ connection: native, taskQueue: config.TEMPORAL_TASK_QUEUE, workflowsPath: require.resolve('../../workflows'), activities });
    settlement = await startSettlementWorker(native, config.TEMPORAL_TASK_QUEUE, activities);
    workerRun = worker.run();
    temporal = await connectTemporal(testTemporalAddress(), 'default');
    composition = await composeApi(config, { db, temporal, chain: port, logger });
    api = await startApiServer({ host: '127.0.0.1', port: 0, logger, ...composition });
  }, 180_000);

  afterAll(async () => {
    await api?.close();
    await composition?.close();
    worker?.shutdown();
    settlement?.worker.shutdown();
    await workerRun;
    await settlement?.done;
    await temporal?.close();
    await chain?.stop();
  });

  const jwtFor = (wallet: Address) =>
    new SignJWT({ wallet_address: wallet }).setProtectedHeader({ alg: 'HS256' }).setExpirationTime('10m').sign(new TextEncoder().encode(SECRET));

  async function call(method: string, path: string, options: { headers?: Record<string, string>; body?: unknown } = {}) {
    const res = await fetch(`${api.url}${path}`, { method, headers: { 'content-type': 'application/json', ...options.headers }, body: options.body === undefined ? undefined : JSON.stringify(options.body) });
    return { status: res.status, body: (await res.json()) as Record<string, any> };
  }

  it('when a wallet trades, saves its transactions and redeems through /trade, then the chain, the records and its user channel agree', async () => {
    const [, alice, bob] = chain.accounts;
    const client = createPublicClient({ transport: http(chain.rpcUrl) });
    const bobWallet = createWalletClient({ account: privateKeyToAccount(bob.privateKey), chain: defineChain({ id: 56, name: 'local', nativeCurrency: { name: 'BNB', symbol: 'BNB', decimals: 18 }, rpcUrls: { default: { http: [chain.rpcUrl] } } }), transport: http(chain.rpcUrl) });
    const admin = { 'x-admin-token': ADMIN };
    const key = (await call('POST', '/admin/platform-keys', { headers: admin, body: { name: 'wallet app' } })).body;
    const platform = { 'fs-platform-key': key.key_id, 'fs-platform-secret': key.secret };
    const created = await call('POST', '/admin/markets', { headers: admin, body: { question: 'Will the trade API settle?', end_date: '2030-01-01T00:00:00Z', fee_rate_bps: 100 } });
    expect(created.status).toBe(201);
    const market = created.body as { condition_id: Hex; chain_id: number; ctf_exchange_address: Address; collateral_token: Address; conditional_tokens_address: Address; tokens: { outcome: 0 | 1; token_id: string; decimals: number }[] };
    const yes = BigInt(market.tokens.find((t) => t.outcome === 1)!.token_id);
    for (const trader of [alice, bob]) await port.fundWallet(trader.address, 100n * E18, { privateKey: trader.privateKey });
    const collateralOf = (a: Address) => client.readContract({ address: market.collateral_token, abi: collateralAbi, functionName: 'balanceOf', args: [a] });
    const tokenOf = (a: Address, id: bigint) => client.readContract({ address: market.conditional_tokens_address, abi: conditionalTokensAbi, functionName: 'balanceOf', args: [a, id] });

    // Bob's private channel, for the saved transactions' statuses.
    const bobJwt = await jwtFor(bob.address);
    const wsToken = (await call('POST', '/v1/auth/ws-token', { headers: { authorization: `Bearer ${bobJwt}` } })).body.token as string;
    const socket = connectSocket(api.url, { path: '/v1/ws', transports: ['websocket'], reconnection: false, forceNew: true, auth: { token: wsToken } });
    const events: { type: string; trade_tx?: Record<string, unknown> }[] = [];
    socket.on('user', (event: (typeof events)[number]) => events.push(event));
    await new Promise<void>((resolve, reject) => {
      socket.once('connect', () => resolve());
      socket.once('connect_error', reject);
    });
    expect(await socket.timeout(5_000).emitWithAck('subscribe', { channel: 'user' })).toEqual({ ok: true });

    // 1. Alice rests BUY NO @0.40 x10: an ask of YES at 0.60.
    const built = buildOrder({
      market: { exchange: market.ctf_exchange_address, chainId: 56, tokens: market.tokens, decimals: 18, feeRateBps: 100 },
      maker: alice.address, side: 'BUY', outcome: 0, price: '0.4', size: '10',
    });
    const aliceItem = {
      condition_id: market.condition_id, chain_id: 56, side: 'BUY', order_type: 'LIMIT', outcome: 0, price: '0.4', size: '10', salt: built.order.salt.toString(),
      signer: alice.address, taker: built.order.taker, token_id: built.order.tokenId.toString(), maker_amount: built.order.makerAmount.toString(),
      taker_amount: built.order.takerAmount.toString(), expiration: '0', nonce: '0', fee_rate_bps: 100, signature_type: 0, signature: signOrder(built, alice.privateKey).signature,
    };
    expect((await call('POST', '/v1/orders', { headers: { authorization: `Bearer ${await jwtFor(alice.address)}` }, body: { orders: [aliceItem] } })).body.results[0].status).toBe('OPEN');
    await eventually('ask on the book', async () => ((await call('GET', `/v1/markets/${market.condition_id}/book`)).body.asks?.length ? true : undefined));

    // 2. Bob spends 3.02 on YES through POST /trade: 5 shares at 0.60 plus a fee of 1% x 0.40 x 5.
    const trade = await call('POST', '/trade', { headers: platform, body: { chain_id: 56, condition_id: market.condition_id, wallet: bob.address, outcome: 1, side: 'BUY', amount: '3.02' } });
    expect(trade.status).toBe(200);
    expect(trade.body.quote).toMatchObject({ kind: 'CLOB', expected_shares: '5', average_price: '0.6', fee: '0.02' });
    expect(trade.body.order).toMatchObject({ order_type: 'MARKET', size: '5', price: '0.6', nonce: '0' });
    const typed = trade.body.typed_data;
    const message = Object.fromEntries(Object.entries(typed.message as Record<string, string | number>).map(([k, v]) => [k, ['maker', 'signer', 'taker'].includes(k) ? v : BigInt(v)]));
    const signature = await privateKeyToAccount(bob.privateKey).signTypedData({ domain: typed.domain, types: typed.types, primaryType: 'Order', message });
    const placed = await call('POST', '/v1/orders', { headers: { authorization: `Bearer ${bobJwt}` }, body: { orders: [{ ...trade.body.order, signature }] } });
    expect(placed.body.results[0]).toMatchObject({ status: 'OPEN' });
    const bobHash = placed.body.results[0].order_hash as string;
    await eventually('bob filled', async () => ((await call('GET', `/v1/orders/${bobHash}`, { headers: { authorization: `Bearer ${bobJwt}` } })).body.status === 'FILLED' ? true : undefined));
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
      return r.status !== 'PENDING' ? r : undefined;
    });
    const confirmed = await ended(approve);
    expect(confirmed).toMatchObject({ status: 'CONFIRMED', block_number: expect.any(String), events: [expect.objectContaining({ contract: 'conditional_tokens', name: 'ApprovalForAll' })] });
    expect((await ended(early))).toMatchObject({ status: 'REVERTED', status_reason: null });
    expect(await temporal.client.workflow.getHandle(tradeTxWorkflowId(56, approve)).result()).toBe('CONFIRMED');
    expect((await save(approve, bob.address)).body).toEqual(confirmed);
    await eventually('trade_tx events', async () => (events.filter((e) => e.type === 'trade_tx').length >= 4 ? true : undefined));
    const story = (hash: Hex) => events.filter((e) => e.trade_tx?.tx_hash === hash).map((e) => e.trade_tx!.status);
    expect(story(approve)).toEqual(['PENDING', 'CONFIRMED']);
    expect(story(early)).toEqual(['PENDING', 'REVERTED']);

    // 4. Positions read the chain: Bob holds 5 YES bought at 0.60.
    const active = (await call('GET', `/trade/positions?wallet=${bob.address}`)).body.data;
    expect(active).toEqual([expect.objectContaining({ condition_id: market.condition_id, kind: 'CLOB', outcome: 1, size: '5', avg_price: '0.6', redeemable: false })]);

    // 5. Resolution (YES), then the redeem call pays what it said.
    const record = await createMarketModel(database.db()).findOne({ condition_id: market.condition_id }).lean<MarketRecord>().exec();
    expect((await call('POST', '/trade/redeem', { headers: platform, body: { chain_id: 56, condition_id: market.condition_id, wallet: bob.address } })).body.code).toBe('MARKET_NOT_RESOLVED');
    await port.reportPayouts(record!.question_id as Hex, 1);
    expect((await call('POST', `/admin/markets/${market.condition_id}/status?chain_id=56`, { headers: admin, body: { status: 'RESOLVED', resolution_outcome: 1 } })).status).toBe(200);
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
