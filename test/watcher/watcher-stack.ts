/**
 * The embedded stack for the chain watcher's tests, wired as `npm start` wires it: a local chain
 * mining a block a second, the API (composeApi) on a random port, and a worker with every activity
 * (settlement and the watcher's) that starts the chain watcher as workers/main.ts does. The worker
 * can be stopped and started again while the chain, Temporal and the store stay up.
 */
import { NativeConnection, Worker, bundleWorkflowCode, type WorkflowBundleWithSourceMap } from '@temporalio/worker';
import { SignJWT } from 'jose';
import { createWalletClient, http, type Address, type Hex } from 'viem';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { createActivities } from '../../activities';
import { watchChainOf } from '../../activities/chain-watcher.activities';
import { startApiServer, type RunningApi } from '../../src/api/server';
import { startLocalChain, type ChainPort, type LocalChain } from '../../src/chain';
import { loadConfig, type Config } from '../../src/config';
import { freePort } from '../../src/embedded/free-port';
import type { RealtimeEvent, RealtimePublisher } from '../../src/ports/realtime-publisher';
import { createRealtimePublisher } from '../../src/gateway';
import { createLogger } from '../../src/logging/logger';
import { matchingCollections, type MatchingCollections, type StoredOrder } from '../../src/matching/collections';
import { chainPortFromConfig } from '../../src/runtime/chain-from-config';
import { composeApi, type ApiComposition } from '../../src/runtime/compose-api';
import { createChainSettlement } from '../../src/settlement/viem-settlement-port';
import { buildOrder, signOrder, type SignedOrder } from '../../src/signing';
import { chainWatcherWorkflowId, startChainWatcher } from '../../src/temporal/chain-watcher.client';
import { connectTemporal, type TemporalHandle } from '../../src/temporal/connect';
import type { ChainWatcherInput } from '../../workflows/chain-watcher.workflow';
import { stopBeforeDatabaseCloses, useTestDatabase } from '../helpers/test-database';
import { testTemporalAddress, uniqueTaskQueue } from '../helpers/test-temporal';
import { startSettlementWorker } from '../helpers/settlement-worker';

export const E18 = 10n ** 18n;
const SECRET = 'watcher-jwt-secret-0123456789abcdef-0123456789';
const ADMIN = 'watcher-admin-token-0123456789abcdef-01234567';

/** How the tests run the watcher: polls faster than the default so 5 s leaves a wide margin under load. */
export const WATCHER_INPUT: Omit<ChainWatcherInput, 'chainId'> = { pollMs: 250, windowMs: 5_000, reorgDepth: 1 };

export interface MarketView {
  condition_id: string;
  chain_id: number;
  fee_rate_bps: number;
  ctf_exchange_address: Address;
  collateral_token: Address;
  conditional_tokens_address: Address;
  tokens: { outcome: 0 | 1; token_id: string; decimals: number }[];
}

export interface Trader {
  address: Address;
  privateKey: Hex;
  wallet: ReturnType<typeof walletOf>;
  jwt: string;
}

export interface PlacedOrder {
  hash: string;
  signed: SignedOrder;
}

function walletOf(port: ChainPort, rpcUrl: string, privateKey: Hex) {
  return createWalletClient({ chain: port.context.chain, transport: http(rpcUrl), account: privateKeyToAccount(privateKey) });
}

export async function eventually<T>(what: string, probe: () => Promise<T | undefined | null | false>, timeoutMs = 60_000, everyMs = 50): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== undefined && value !== null && value !== false) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, everyMs));
  }
}

/** Registers the stack's hooks in the calling describe block. */
export function useWatcherStack() {
  const database = useTestDatabase('watcher');
  const logger = createLogger({ level: 'silent' });
  let chain: LocalChain;
  let config: Config;
  let port: ChainPort;
  let temporal: TemporalHandle;
  let composition: ApiComposition;
  let api: RunningApi;
  let bundle: WorkflowBundleWithSourceMap;
  let native: NativeConnection;
  let running: { stop: () => Promise<void> } | undefined;
  /** Every event the workers published, in order. */
  const published: RealtimeEvent[] = [];

  async function startWorker(): Promise<void> {
    const db = database.db();
    const publisher = createRealtimePublisher({ db, logger });
    const recording: RealtimePublisher = {
      publish: (events) => {
        published.push(...events);
        return publisher.publish(events);
      },
    };
    const activities = createActivities({
      db, logger, chain: createChainSettlement(() => port, config.CHAIN_CONFIRMATIONS), publisher: recording, chainPollMs: 200,
      watchedChain: () => watchChainOf(port), conditionChain: () => port,
    });
    const worker = await Worker.create({ connection: native, taskQueue: config.TEMPORAL_TASK_QUEUE, workflowBundle: bundle, activities, shutdownGraceTime: '1s' });
    const settlement = await startSettlementWorker(native, config.TEMPORAL_TASK_QUEUE, activities);
    const run = worker.run();
    // As workers/main.ts: every start asks for the watcher, which keeps the one running.
    await startChainWatcher(temporal.client, config.TEMPORAL_TASK_QUEUE, { chainId: 56, ...WATCHER_INPUT });
    running = {
      stop: async () => {
        worker.shutdown();
        settlement.worker.shutdown();
        await run;
        await settlement.done;
      },
    };
  }

  async function stopWorker(): Promise<void> {
    const r = running;
    running = undefined;
    await r?.stop();
  }

  beforeAll(async () => {
    chain = await startLocalChain({ port: await freePort(), chainId: 56, blockIntervalMs: 1_000 });
    config = loadConfig({
      CHAIN_RPC_URL: chain.rpcUrl,
      OPERATOR_PRIVATE_KEY: chain.operatorKey,
      EXCHANGE_ADDRESS: chain.addresses.exchange,
      COLLATERAL_ADDRESS: chain.addresses.collateral,
      CONDITIONAL_TOKENS_ADDRESS: chain.addresses.conditionalTokens,
      CHAIN_CONFIRMATIONS: '1',
      TEMPORAL_TASK_QUEUE: uniqueTaskQueue('watcher'),
      AUTH_JWT_SECRET: SECRET,
      API_KEY_PEPPER: 'watcher-pepper-0123456789abcdef-0123456789ab',
      ADMIN_TOKEN: ADMIN,
      LOG_LEVEL: 'silent',
    });
    port = chainPortFromConfig(config);
    bundle = await bundleWorkflowCode({ workflowsPath: require.resolve('../../workflows'), logger: { trace() {}, debug() {}, info() {}, warn() {}, error() {}, log() {} } });
    native = await NativeConnection.connect({ address: testTemporalAddress() });
    temporal = await connectTemporal(testTemporalAddress(), 'default');
    stopBeforeDatabaseCloses(database.db(), async () => {
      await api?.close();
      await composition?.close();
      await stopWorker();
    });
    await startWorker();
    composition = await composeApi(config, { db: database.db(), temporal, chain: port, logger });
    api = await startApiServer({ host: '127.0.0.1', port: 0, logger, ...composition });
  }, 180_000);

  afterAll(async () => {
    await stopWorker();
    await temporal?.close();
    await native?.close();
    await chain?.stop();
  });

  async function call(method: string, path: string, options: { jwt?: string; admin?: boolean; body?: unknown } = {}) {
    const headers: Record<string, string> = { 'content-type': 'application/json' };
    if (options.jwt) headers.authorization = `Bearer ${options.jwt}`;
    if (options.admin) headers['x-admin-token'] = ADMIN;
    const res = await fetch(`${api.url}${path}`, { method, headers, body: options.body === undefined ? undefined : JSON.stringify(options.body) });
    return { status: res.status, body: (await res.json()) as Record<string, any> };
  }

  const collections = (): MatchingCollections => matchingCollections(database.db());

  return {
    get chain() {
      return chain;
    },
    get port() {
      return port;
    },
    get client() {
      return temporal.client;
    },
    call,
    startWorker,
    stopWorker,
    watcherId: () => chainWatcherWorkflowId(56),
    taskQueue: () => config.TEMPORAL_TASK_QUEUE,

    async createMarket(): Promise<MarketView> {
      const created = await call('POST', '/admin/markets', { admin: true, body: { question: `Watcher ${Math.random()}?`, end_date: '2030-01-01T00:00:00Z', fee_rate_bps: 100 } });
      if (created.status !== 201) throw new Error(`market not created: ${JSON.stringify(created.body)}`);
      return created.body as unknown as MarketView;
    },

    /** A new wallet with gas, `collateral` minted and both exchange approvals set (the faucet's). */
    async newTrader(collateral: bigint): Promise<Trader> {
      const privateKey = generatePrivateKey();
      const address = privateKeyToAccount(privateKey).address;
      await port.fundWallet(address, collateral, { privateKey, nativeAmount: E18 });
      const jwt = await new SignJWT({ wallet_address: address }).setProtectedHeader({ alg: 'HS256' }).setExpirationTime('30m').sign(new TextEncoder().encode(SECRET));
      return { address, privateKey, wallet: walletOf(port, chain.rpcUrl, privateKey), jwt };
    },

    /** Signs and places one order over HTTP; resolves once it rests on the book (unless `rests` is false: a taker). */
    async place(
      trader: Trader, market: MarketView, o: { side: 'BUY' | 'SELL'; outcome: 0 | 1; price: string; size: string; nonce?: bigint }, { rests = true } = {},
    ): Promise<PlacedOrder> {
      const built = buildOrder({
        market: { exchange: market.ctf_exchange_address, chainId: market.chain_id, tokens: market.tokens, decimals: market.tokens[0]!.decimals, feeRateBps: market.fee_rate_bps },
        maker: trader.address, side: o.side, outcome: o.outcome, price: o.price, size: o.size, nonce: o.nonce,
      });
      const signed = signOrder(built, trader.privateKey);
      const item = {
        condition_id: market.condition_id, chain_id: market.chain_id, side: o.side, order_type: 'LIMIT', outcome: o.outcome, price: o.price, size: o.size,
        salt: built.order.salt.toString(), signer: trader.address, taker: built.order.taker, token_id: built.order.tokenId.toString(),
        maker_amount: built.order.makerAmount.toString(), taker_amount: built.order.takerAmount.toString(), expiration: '0', nonce: built.order.nonce.toString(),
        fee_rate_bps: market.fee_rate_bps, signature_type: 0, signature: signed.signature,
      };
      const placed = await call('POST', '/v1/orders', { jwt: trader.jwt, body: { orders: [item] } });
      const result = placed.body.results?.[0] as { status?: string; error?: unknown } | undefined;
      if (result?.status !== 'OPEN') throw new Error(`order not placed: ${JSON.stringify(placed.body)}`);
      if (rests) await eventually('order resting', async () => (await this.order(signed.orderHash))?.book_added_at);
      return { hash: signed.orderHash, signed: { ...built.order, signature: signed.signature } };
    },

    order: (hash: string): Promise<StoredOrder | null> => collections().orders.findOne({ _id: hash.toLowerCase() }),

    /** The `user` order events the worker published for the wallet, oldest first. */
    userOrderEvents(wallet: string): Record<string, unknown>[] {
      return published.flatMap((e) => (e.channel === 'user' && e.wallet === wallet.toLowerCase() && e.payload.type === 'order' ? [e.payload.order] : []));
    },

    /** Sends a transaction from the trader and waits for its block; resolves the time it was mined (ms). */
    async send(trader: Trader, write: (wallet: Trader['wallet']) => Promise<Hex>): Promise<number> {
      const hash = await write(trader.wallet);
      const receipt = await port.waitForReceipt(hash, 0);
      if (receipt.status !== 'success') throw new Error(`transaction ${hash} reverted`);
      return Date.now();
    },

    /** Resolves the order once it has `status`, with when that was first seen (polled every 50 ms). */
    async until(hash: string, status: string, timeoutMs = 30_000): Promise<{ order: StoredOrder; seenAt: number }> {
      const order = await eventually(`${hash} ${status}`, async () => {
        const o = await this.order(hash);
        return o?.status === status ? o : undefined;
      }, timeoutMs);
      return { order, seenAt: Date.now() };
    },
  };
}

export type WatcherStack = ReturnType<typeof useWatcherStack>;
