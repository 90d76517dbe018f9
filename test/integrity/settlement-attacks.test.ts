/**
 * Attacks on settlement, on the embedded stack wired as `npm start` wires it (real chain, real
 * Temporal, real store): a trader whose order rests voids it on chain without telling the API
 * (allowance revoked, collateral or outcome tokens moved away, nonce raised, order cancelled on
 * the exchange, a contract wallet burning gas or refusing tokens). An honest taker's match takes the attacker's order and an honest maker's;
 * the attacker's order alone ends MATCH_FAILED with its reason, and the honest maker and taker end
 * FILLED with the chain balances their fills say (the taker completed by a second honest maker).
 * One stack for the file; each attack has its own market and wallets.
 */
import { NativeConnection, Worker } from '@temporalio/worker';
import { SignJWT } from 'jose';
import { createPublicClient, createWalletClient, encodeFunctionData, http, type Address, type Hex } from 'viem';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { createActivities } from '../../activities';
import { startApiServer, type RunningApi } from '../../src/api/server';
import { startLocalChain, type ChainPort, type LocalChain } from '../../src/chain';
import { collateralAbi, conditionalTokensAbi, contractWalletAbi, contractWalletBytecode, exchangeAbi } from '../../src/chain/generated';
import { loadApiConfig, loadConfig } from '../../src/config';
import { freePort } from '../../src/embedded/free-port';
import { createLogger } from '../../src/logging/logger';
import { chainPortFromConfig, readingChainPortFromConfig } from '../../src/runtime/chain-from-config';
import { composeApi, type ApiComposition } from '../../src/runtime/compose-api';
import { createChainSettlement } from '../../src/settlement/viem-settlement-port';
import { buildOrder, signOrder, type SignedOrder } from '../../src/signing';
import { connectTemporal, type TemporalHandle } from '../../src/temporal/connect';
import { useTestDatabase } from '../helpers/test-database';
import { testTemporalAddress, uniqueTaskQueue } from '../helpers/test-temporal';
import { startSettlementWorker } from '../helpers/settlement-worker';

const E18 = 10n ** 18n;
const SECRET = 'attack-jwt-secret-0123456789abcdef-0123456789';
const ADMIN = 'attack-admin-token-0123456789abcdef-0123456789';
/** A hostile ContractWallet's modes (contracts/mocks/ContractWallet.sol). */
const BURN_IN_SIGNATURE = 1;
const REFUSE_TOKENS = 3;
const REFUSE_SIGNATURE = 4;

interface MarketView {
  condition_id: string;
  chain_id: number;
  fee_rate_bps: number;
  ctf_exchange_address: Address;
  collateral_token: Address;
  conditional_tokens_address: Address;
  tokens: { outcome: 0 | 1; token_id: string; decimals: number }[];
}

/** A trader: its key, and the address it trades as (its own, or its contract wallet's). */
interface Trader {
  key: Hex;
  address: Address;
  signatureType: 0 | 1;
}

async function eventually<T>(what: string, probe: () => Promise<T | undefined>, timeoutMs = 90_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 250));
  }
}

describe('settlement attacks: one trader cannot fail another\'s trade', () => {
  const database = useTestDatabase('attacks');
  const logger = createLogger({ level: 'silent' });
  let chain: LocalChain;
  let port: ChainPort;
  let temporal: TemporalHandle;
  let composition: ApiComposition;
  let api: RunningApi;
  let worker: Worker;
  let workerRun: Promise<void>;
  let settlement: Awaited<ReturnType<typeof startSettlementWorker>> | undefined;

  beforeAll(async () => {
    chain = await startLocalChain({ port: await freePort(), chainId: 56, blockIntervalMs: 200 });
    const env = {
      CHAIN_RPC_URL: chain.rpcUrl, OPERATOR_PRIVATE_KEY: chain.operatorKey, EXCHANGE_ADDRESS: chain.addresses.exchange,
      COLLATERAL_ADDRESS: chain.addresses.collateral, CONDITIONAL_TOKENS_ADDRESS: chain.addresses.conditionalTokens, CHAIN_CONFIRMATIONS: '1',
      TEMPORAL_TASK_QUEUE: uniqueTaskQueue('attacks'), AUTH_JWT_SECRET: SECRET, API_KEY_PEPPER: 'attack-pepper-0123456789abcdef-0123456789ab',
      ADMIN_TOKEN: ADMIN, LOG_LEVEL: 'silent',
    };
    const config = loadConfig(env);
    const db = database.db();
    port = chainPortFromConfig(config);
    // The API as it runs: its environment has no operator key, and market creation still works (the worker prepares conditions).
    const { OPERATOR_PRIVATE_KEY: _workerOnly, ...apiEnv } = env;
    const apiConfig = loadApiConfig(apiEnv);
    expect('OPERATOR_PRIVATE_KEY' in apiConfig).toBe(false);
    const native = await NativeConnection.connect({ address: testTemporalAddress() });
    const activities = createActivities({ db, logger, chain: createChainSettlement(() => port, config.CHAIN_CONFIRMATIONS), chainPollMs: 200, conditionChain: () => port });
    worker = await Worker.create({ connection: native, taskQueue: config.TEMPORAL_TASK_QUEUE, workflowsPath: require.resolve('../../workflows'), activities });
    settlement = await startSettlementWorker(native, config.TEMPORAL_TASK_QUEUE, activities);
    workerRun = worker.run();
    temporal = await connectTemporal(testTemporalAddress(), 'default');
    composition = await composeApi(apiConfig, { db, temporal, chain: readingChainPortFromConfig(apiConfig), logger });
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

  async function call(method: string, path: string, options: { jwt?: string; admin?: boolean; body?: unknown } = {}) {
    const headers: Record<string, string> = { 'content-type': 'application/json' };
    if (options.jwt) headers.authorization = `Bearer ${options.jwt}`;
    if (options.admin) headers['x-admin-token'] = ADMIN;
    const res = await fetch(`${api.url}${path}`, { method, headers, body: options.body === undefined ? undefined : JSON.stringify(options.body) });
    return { status: res.status, body: (await res.json()) as Record<string, any> };
  }

  const client = () => createPublicClient({ transport: http(chain.rpcUrl) });
  const walletClient = (key: Hex) => createWalletClient({ chain: port.context.chain, transport: http(chain.rpcUrl), account: privateKeyToAccount(key) });
  const mined = async (hash: Hex) => {
    const receipt = await client().waitForTransactionReceipt({ hash });
    if (receipt.status !== 'success') throw new Error(`transaction ${hash} reverted`);
    return receipt;
  };

  async function newMarket(): Promise<MarketView & { yes: bigint; no: bigint }> {
    const created = await call('POST', '/admin/markets', { admin: true, body: { question: `Attack ${Math.random()}?`, end_date: '2030-01-01T00:00:00Z', fee_rate_bps: 0 } });
    expect(created.status).toBe(201);
    const market = created.body as unknown as MarketView;
    const id = (outcome: 0 | 1) => BigInt(market.tokens.find((t) => t.outcome === outcome)!.token_id);
    return { ...market, yes: id(1), no: id(0) };
  }

  /** A fresh EOA with 100 collateral (and `yes` YES tokens split from more), gas money, and both exchange approvals. */
  async function trader(market: MarketView, yes = 0n): Promise<Trader> {
    const key = generatePrivateKey();
    const { address } = privateKeyToAccount(key);
    await port.fundWallet(address, 100n * E18 + yes, { privateKey: key, nativeAmount: E18 });
    if (yes > 0n) {
      const w = walletClient(key);
      await mined(await w.writeContract({ address: market.collateral_token, abi: collateralAbi, functionName: 'approve', args: [market.conditional_tokens_address, yes] }));
      await mined(await w.writeContract({ address: market.conditional_tokens_address, abi: conditionalTokensAbi, functionName: 'splitPosition', args: [market.collateral_token, market.condition_id as Hex, yes] }));
    }
    return { key, address, signatureType: 0 };
  }

  /** A ContractWallet (EIP-1271) of a fresh owner, holding 100 collateral with the exchange approved. */
  async function contractTrader(market: MarketView): Promise<Trader> {
    const owner = await trader(market);
    const w = walletClient(owner.key);
    const deployed = await mined(await w.deployContract({ abi: contractWalletAbi, bytecode: contractWalletBytecode, args: [owner.address] }));
    const wallet = deployed.contractAddress!;
    await port.fundWallet(wallet, 100n * E18);
    const approve = encodeFunctionData({ abi: collateralAbi, functionName: 'approve', args: [market.ctf_exchange_address, 10n ** 30n] });
    await mined(await w.writeContract({ address: wallet, abi: contractWalletAbi, functionName: 'execute', args: [market.collateral_token, approve] }));
    return { key: owner.key, address: wallet, signatureType: 1 };
  }

  async function setMode(t: Trader, mode: number): Promise<void> {
    await mined(await walletClient(t.key).writeContract({ address: t.address, abi: contractWalletAbi, functionName: 'setMode', args: [mode] }));
  }

  /** The orders placed, as signed (an attacker cancels its own on chain). */
  const signedOf = new Map<string, SignedOrder>();

  /** Places an order over HTTP (accepted OPEN) and waits until the market took it. */
  async function place(t: Trader, market: MarketView, o: { side: 'BUY' | 'SELL'; outcome: 0 | 1; price: string; size: string }): Promise<string> {
    const built = buildOrder({
      market: { exchange: market.ctf_exchange_address, chainId: market.chain_id, tokens: market.tokens, decimals: market.tokens[0].decimals, feeRateBps: market.fee_rate_bps },
      maker: t.address, signatureType: t.signatureType, ...o,
    });
    const signed = signOrder(built, t.key);
    signedOf.set(signed.orderHash, { ...built.order, signature: signed.signature });
    const item = {
      condition_id: market.condition_id, chain_id: market.chain_id, side: o.side, order_type: 'LIMIT', outcome: o.outcome, price: o.price, size: o.size,
      salt: built.order.salt.toString(), signer: t.address, taker: built.order.taker, token_id: built.order.tokenId.toString(),
      maker_amount: built.order.makerAmount.toString(), taker_amount: built.order.takerAmount.toString(), expiration: '0', nonce: '0',
      fee_rate_bps: market.fee_rate_bps, signature_type: t.signatureType, signature: signed.signature,
    };
    const jwt = await jwtFor(t.address);
    const placed = await call('POST', '/v1/orders', { jwt, body: { orders: [item] } });
    expect(placed.body.results[0]).toMatchObject({ order_hash: signed.orderHash, status: 'OPEN' });
    await eventually('order taken by the market', async () => ((await call('GET', `/v1/orders/${signed.orderHash}`, { jwt })).body.book_added_at ? true : undefined), 30_000);
    return signed.orderHash;
  }

  const orderOf = async (t: Trader, hash: string) => (await call('GET', `/v1/orders/${hash}`, { jwt: await jwtFor(t.address) })).body;
  const endsAs = (t: Trader, hash: string, status: string) =>
    eventually(`${hash} ${status}`, async () => {
      const o = await orderOf(t, hash);
      return o.status === status ? o : undefined;
    });
  const balances = async (market: MarketView & { yes: bigint; no: bigint }, who: Address) => {
    const c = client();
    const [collateral, yes, no] = await Promise.all([
      c.readContract({ address: market.collateral_token, abi: collateralAbi, functionName: 'balanceOf', args: [who] }),
      c.readContract({ address: market.conditional_tokens_address, abi: conditionalTokensAbi, functionName: 'balanceOf', args: [who, market.yes] }),
      c.readContract({ address: market.conditional_tokens_address, abi: conditionalTokensAbi, functionName: 'balanceOf', args: [who, market.no] }),
    ]);
    return { collateral, yes, no };
  };

  /**
   * BUY side: the attacker, then the honest maker H, then a second honest maker H2 rest BUY YES 10
   * @0.50; `attack` voids the attacker's order on chain; the honest taker T's BUY NO 20 @0.50 takes
   * the attacker and H in one match (mint). After the refusal H rests again ahead of H2, and T
   * meets H and H2: both makers get 10 YES for 5, T gets 20 NO for 10.
   */
  async function buySideAttack(
    makeAttacker: (market: MarketView) => Promise<Trader>, attack: (attacker: Trader, market: MarketView, order: SignedOrder) => Promise<void>, reason: string,
    /** The attacker's order may also end this way: a chain watcher that saw the attack first cancels it before the match. */
    orSeenFirst?: 'CANCELLED',
  ) {
    const market = await newMarket();
    const attacker = await makeAttacker(market);
    const [h, h2, t] = [await trader(market), await trader(market), await trader(market)];
    const buyYes = { side: 'BUY' as const, outcome: 1 as const, price: '0.5', size: '10' };
    const xHash = await place(attacker, market, buyYes);
    const hHash = await place(h, market, buyYes);
    const h2Hash = await place(h2, market, buyYes);
    await attack(attacker, market, signedOf.get(xHash)!);
    const tHash = await place(t, market, { side: 'BUY', outcome: 0, price: '0.5', size: '20' });
    await endsAs(t, tHash, 'FILLED');
    await endsAs(h, hHash, 'FILLED');
    await endsAs(h2, h2Hash, 'FILLED');
    const ended = await eventually(`${xHash} ended`, async () => {
      const o = await orderOf(attacker, xHash);
      return o.status === 'MATCH_FAILED' || (orSeenFirst && o.status === orSeenFirst) ? o : undefined;
    });
    expect(ended.status_reason).toBe(reason);
    expect(await balances(market, h.address)).toEqual({ collateral: 95n * E18, yes: 10n * E18, no: 0n });
    expect(await balances(market, h2.address)).toEqual({ collateral: 95n * E18, yes: 10n * E18, no: 0n });
    expect(await balances(market, t.address)).toEqual({ collateral: 90n * E18, yes: 0n, no: 20n * E18 });
    // The honest orders' fills: the refused match's FAILED, then the ones that settled.
    const fills = (await call('GET', '/v1/fills', { jwt: await jwtFor(t.address) })).body.data as { settlement_status: string; size: string }[];
    expect(fills.filter((f) => f.settlement_status === 'CONFIRMED').map((f) => f.size)).toEqual(['10', '10']);
  }

  it('when a resting BUY maker revokes its collateral allowance before the match settles, then its order alone ends MATCH_FAILED (BALANCE_CHANGED) and the honest maker and taker end FILLED', async () => {
    await buySideAttack((m) => trader(m), async (x, m) => {
      await mined(await walletClient(x.key).writeContract({ address: m.collateral_token, abi: collateralAbi, functionName: 'approve', args: [m.ctf_exchange_address, 0n] }));
    }, 'BALANCE_CHANGED');
  }, 240_000);

  it('when a resting BUY maker moves its collateral away before the match settles, then its order alone ends MATCH_FAILED (BALANCE_CHANGED) and the honest maker and taker end FILLED', async () => {
    await buySideAttack((m) => trader(m), async (x, m) => {
      const w = walletClient(x.key);
      await mined(await w.writeContract({ address: m.collateral_token, abi: collateralAbi, functionName: 'transfer', args: [chain.accounts[9].address, 100n * E18] }));
    }, 'BALANCE_CHANGED');
  }, 240_000);

  it('when a resting BUY maker raises its nonce on the exchange before the match settles, then its order alone ends MATCH_FAILED (NONCE_BUMPED; or CANCELLED NONCE_BUMPED when a chain watcher saw it first) and the honest maker and taker end FILLED', async () => {
    await buySideAttack((m) => trader(m), async (x, m) => {
      await mined(await walletClient(x.key).writeContract({ address: m.ctf_exchange_address, abi: exchangeAbi, functionName: 'incrementNonce' }));
    }, 'NONCE_BUMPED', 'CANCELLED');
  }, 240_000);

  it('when a resting BUY maker cancels its order on the exchange before the match settles, then its order alone ends MATCH_FAILED (ONCHAIN_CANCEL; or CANCELLED ONCHAIN_CANCEL when a chain watcher saw it first) and the honest maker and taker end FILLED', async () => {
    await buySideAttack((m) => trader(m), async (x, m, order) => {
      await mined(await walletClient(x.key).writeContract({ address: m.ctf_exchange_address, abi: exchangeAbi, functionName: 'cancelOrder', args: [order] }));
    }, 'ONCHAIN_CANCEL', 'CANCELLED');
  }, 240_000);

  it('when a resting contract-wallet maker starts burning gas in isValidSignature, then its order alone ends MATCH_FAILED (GAS_BURNED) and the honest maker and taker end FILLED', async () => {
    await buySideAttack((m) => contractTrader(m), (x) => setMode(x, BURN_IN_SIGNATURE), 'GAS_BURNED');
  }, 240_000);

  it('when a resting contract-wallet maker\'s isValidSignature starts refusing the signature it accepted, then its order alone ends MATCH_FAILED (SIGNATURE_REFUSED) and the honest maker and taker end FILLED', async () => {
    await buySideAttack((m) => contractTrader(m), (x) => setMode(x, REFUSE_SIGNATURE), 'SIGNATURE_REFUSED');
  }, 240_000);

  it('when a resting contract-wallet maker starts refusing the outcome tokens it bought, then its order alone ends MATCH_FAILED (TOKENS_REFUSED) and the honest maker and taker end FILLED', async () => {
    await buySideAttack((m) => contractTrader(m), (x) => setMode(x, REFUSE_TOKENS), 'TOKENS_REFUSED');
  }, 240_000);

  it('when a resting SELL maker moves its outcome tokens away before the match settles, then its order alone ends MATCH_FAILED (BALANCE_CHANGED) and the honest maker and taker end FILLED', async () => {
    const market = await newMarket();
    const [x, h, h2] = [await trader(market, 10n * E18), await trader(market, 10n * E18), await trader(market, 10n * E18)];
    const t = await trader(market);
    const sellYes = { side: 'SELL' as const, outcome: 1 as const, price: '0.5', size: '10' };
    const xHash = await place(x, market, sellYes);
    const hHash = await place(h, market, sellYes);
    const h2Hash = await place(h2, market, sellYes);
    await mined(await walletClient(x.key).writeContract({
      address: market.conditional_tokens_address, abi: conditionalTokensAbi, functionName: 'safeTransferFrom', args: [x.address, chain.accounts[9].address, market.yes, 10n * E18, '0x'],
    }));
    const tHash = await place(t, market, { side: 'BUY', outcome: 1, price: '0.5', size: '20' });
    await endsAs(t, tHash, 'FILLED');
    await endsAs(h, hHash, 'FILLED');
    await endsAs(h2, h2Hash, 'FILLED');
    expect((await endsAs(x, xHash, 'MATCH_FAILED')).status_reason).toBe('BALANCE_CHANGED');
    for (const seller of [h, h2]) expect(await balances(market, seller.address)).toEqual({ collateral: 105n * E18, yes: 0n, no: 10n * E18 });
    expect(await balances(market, t.address)).toEqual({ collateral: 90n * E18, yes: 20n * E18, no: 0n });
  }, 240_000);
});
