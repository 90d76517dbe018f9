/**
 * The embedded stack as `npm start` wires it, inside one jest file: a local chain with the
 * contracts, a worker running the real market and settlement activities, and the API process's
 * own composition (composeApi) on a free port. Orders go in over HTTP and settle on the chain.
 */
import { NativeConnection, Worker } from '@temporalio/worker';
import { SignJWT } from 'jose';
import type { Connection } from 'mongoose';
import type { Address, Hex } from 'viem';
import { createActivities } from '../../activities';
import { watchChainOf } from '../../activities/chain-watcher.activities';
import { poolWatchChainOf } from '../../src/amm/pool-logs';
import { startApiServer, type RunningApi } from '../../src/api/server';
import { startLocalChain, type ChainPort, type LocalChain } from '../../src/chain';
import { loadApiConfig, loadConfig, type Config } from '../../src/config';
import type { RealtimeEvent, RealtimePublisher } from '../../src/ports/realtime-publisher';
import { freePort } from '../../src/embedded/free-port';
import { createRealtimePublisher } from '../../src/gateway';
import { createLogger } from '../../src/logging/logger';
import { chainPortFromConfig, readingChainPortFromConfig } from '../../src/runtime/chain-from-config';
import { composeApi, type ApiComposition } from '../../src/runtime/compose-api';
import { createChainSettlement } from '../../src/settlement/viem-settlement-port';
import { poolTradesOfTx } from '../../src/amm/pool-trades-of-tx';
import { buildOrder, signOrder, type SignedOrder } from '../../src/signing';
import { startChainWatcher } from '../../src/temporal/chain-watcher.client';
import { connectTemporal, type TemporalHandle } from '../../src/temporal/connect';
import { tradeTxChainOf } from '../../src/trade/trade-tx-chain';
import type { ChainWatcherInput } from '../../workflows/chain-watcher.workflow';
import { stopBeforeDatabaseCloses, useTestDatabase } from './test-database';
import { testTemporalAddress, uniqueTaskQueue } from './test-temporal';
import { startSettlementWorker } from './settlement-worker';
import { testWorkflowBundle } from './workflow-bundle';

export const STACK_JWT_SECRET = 'stack-jwt-secret-0123456789abcdef-0123456789';
export const STACK_ADMIN_TOKEN = 'stack-admin-token-0123456789abcdef-0123456789';

/** The market fields order signing needs, as GET /v1/markets answers them. */
export interface TradableMarket {
  condition_id: string;
  chain_id: number;
  fee_rate_bps: number;
  ctf_exchange_address: Address;
  tokens: { outcome: 0 | 1; token_id: string; decimals: number }[];
}

export interface OrderTerms {
  side: 'BUY' | 'SELL';
  outcome: 0 | 1;
  price: string;
  size: string;
  /** The exchange nonce the order is signed under; default 0. */
  nonce?: bigint;
}

/** A wallet that signs orders: an EOA (type 0), or the owner key of a contract wallet at `address` (type 1, EIP-1271). */
export interface OrderSigner {
  address: Address;
  privateKey: Hex;
  signatureType?: 0 | 1;
}

export interface CallOptions {
  jwt?: string;
  admin?: boolean;
  /** More request headers (e.g. a platform key's). */
  headers?: Record<string, string>;
  body?: unknown;
}

export interface TradingStackOptions {
  /** How often the local chain mines a block; default 200 ms. */
  blockIntervalMs?: number;
  /** Compose the API from the API process's own configuration, which has no operator key (src/api/main.ts). */
  apiWithoutOperatorKey?: boolean;
  /** Ask for the chain watcher with this input at every worker start, as workers/main.ts does. */
  chainWatcher?: Omit<ChainWatcherInput, 'chainId'>;
}

export interface TradingStack {
  api: RunningApi;
  chain: LocalChain;
  /** The worker's chain port (operator key): funds wallets, reports payouts. */
  port: ChainPort;
  config: Config;
  db: Connection;
  temporal: TemporalHandle;
  /** Every realtime event the worker published, oldest first. */
  published: RealtimeEvent[];
  jwtFor(wallet: Address): Promise<string>;
  call(method: string, path: string, options?: CallOptions): Promise<{ status: number; body: Record<string, any> }>;
  /** A POST /v1/orders item signed by `account`, its order hash, and the order as signed. */
  signedItem(account: OrderSigner, market: TradableMarket, terms: OrderTerms): { item: Record<string, unknown>; hash: Hex; signed: SignedOrder };
  /** Stops the worker (and the settlement worker) while the chain, Temporal, the store and the API stay up. */
  stopWorker(): Promise<void>;
  startWorker(): Promise<void>;
}

/**
 * Starts the stack before the file's tests and stops it before the test database closes.
 * `env` adds to the configuration (e.g. LOCAL_DEV_CHAIN: 'true' seeds the demo market as `npm start` does).
 */
export function useTradingStack(prefix: string, env: Record<string, string> = {}, options: TradingStackOptions = {}): () => TradingStack {
  const database = useTestDatabase(prefix);
  const logger = createLogger({ level: 'silent' });
  let stack: TradingStack | undefined;

  beforeAll(async () => {
    const chain = await startLocalChain({ port: await freePort(), chainId: 56, blockIntervalMs: options.blockIntervalMs ?? 200 });
    const fullEnv: Record<string, string> = {
      CHAIN_RPC_URL: chain.rpcUrl,
      OPERATOR_PRIVATE_KEY: chain.operatorKey,
      EXCHANGE_ADDRESS: chain.addresses.exchange,
      COLLATERAL_ADDRESS: chain.addresses.collateral,
      CONDITIONAL_TOKENS_ADDRESS: chain.addresses.conditionalTokens,
      CHAIN_CONFIRMATIONS: '1',
      TEMPORAL_TASK_QUEUE: uniqueTaskQueue(prefix),
      AUTH_JWT_SECRET: STACK_JWT_SECRET,
      API_KEY_PEPPER: 'stack-pepper-0123456789abcdef-0123456789ab',
      ADMIN_TOKEN: STACK_ADMIN_TOKEN,
      LOG_LEVEL: 'silent',
      ...env,
    };
    const config = loadConfig(fullEnv);
    const db = database.db();
    const port = chainPortFromConfig(config);
    const published: RealtimeEvent[] = [];
    const publisher = createRealtimePublisher({ db, logger });
    const recording: RealtimePublisher = {
      publish: (events) => {
        published.push(...events);
        return publisher.publish(events);
      },
    };
    const activities = createActivities({
      db,
      logger,
      chain: createChainSettlement(() => port, config.CHAIN_CONFIRMATIONS),
      conditionChain: () => port,
      publisher: recording,
      chainPollMs: 200,
      watchedChain: () => watchChainOf(port),
      // AMM markets: their pools' setup and the saved transactions that trade with them.
      operatorChain: () => port.context,
      tradeTxChain: () => tradeTxChainOf(port),
      decodePoolTrades: poolTradesOfTx(db, port.chainId),
      poolWatchChain: () => poolWatchChainOf(port.context, config.CHAIN_CONFIRMATIONS),
    });
    // Bundled once, so that a restarted worker starts in a second.
    const bundle = await testWorkflowBundle();
    const native = await NativeConnection.connect({ address: testTemporalAddress() });
    const temporal: TemporalHandle = await connectTemporal(testTemporalAddress(), 'default');
    let running: (() => Promise<void>) | undefined;
    const startWorker = async () => {
      const worker = await Worker.create({ connection: native, taskQueue: config.TEMPORAL_TASK_QUEUE, workflowBundle: bundle, activities, shutdownGraceTime: '1s' });
      const settlement = await startSettlementWorker(native, config.TEMPORAL_TASK_QUEUE, activities);
      const run = worker.run();
      running = async () => {
        worker.shutdown();
        settlement.worker.shutdown();
        await run;
        await settlement.done;
      };
      if (options.chainWatcher) await startChainWatcher(temporal.client, config.TEMPORAL_TASK_QUEUE, { chainId: 56, ...options.chainWatcher });
    };
    const stopWorker = async () => {
      const stop = running;
      running = undefined;
      await stop?.();
    };
    await startWorker();
    const composition: ApiComposition = options.apiWithoutOperatorKey
      ? await composeApiWithoutOperatorKey(fullEnv, { db, temporal, logger })
      : await composeApi(config, { db, temporal, chain: port, logger });
    const api = await startApiServer({ host: '127.0.0.1', port: 0, logger, ...composition });
    stopBeforeDatabaseCloses(db, async () => {
      await api.close();
      await composition.close();
      await stopWorker();
      await temporal.close();
      await native.close();
      await chain.stop();
    });
    stack = {
      api, chain, port, config, db, temporal, published, jwtFor, signedItem, stopWorker, startWorker,
      call: (method, path, callOptions) => call(api.url, method, path, callOptions),
    };
  }, 180_000);

  return () => {
    if (!stack) throw new Error('the trading stack did not start (see beforeAll)');
    return stack;
  };
}

/** The API as its process runs: its environment has no operator key, so it reads the chain only. */
async function composeApiWithoutOperatorKey(env: Record<string, string>, io: Omit<Parameters<typeof composeApi>[1], 'chain'>): Promise<ApiComposition> {
  const { OPERATOR_PRIVATE_KEY: _workerOnly, ...apiEnv } = env;
  const apiConfig = loadApiConfig(apiEnv);
  if ('OPERATOR_PRIVATE_KEY' in apiConfig) throw new Error('the API configuration kept the operator key');
  return composeApi(apiConfig, { ...io, chain: readingChainPortFromConfig(apiConfig) });
}

const jwtFor = (wallet: Address) =>
  new SignJWT({ wallet_address: wallet }).setProtectedHeader({ alg: 'HS256' }).setExpirationTime('10m').sign(new TextEncoder().encode(STACK_JWT_SECRET));

async function call(base: string, method: string, path: string, options: CallOptions = {}) {
  const headers: Record<string, string> = { 'content-type': 'application/json', ...options.headers };
  if (options.jwt) headers.authorization = `Bearer ${options.jwt}`;
  if (options.admin) headers['x-admin-token'] = STACK_ADMIN_TOKEN;
  const res = await fetch(`${base}${path}`, { method, headers, body: options.body === undefined ? undefined : JSON.stringify(options.body) });
  return { status: res.status, body: (await res.json()) as Record<string, any> };
}

function signedItem(account: OrderSigner, market: TradableMarket, o: OrderTerms) {
  const signatureType = account.signatureType ?? 0;
  const built = buildOrder({
    market: { exchange: market.ctf_exchange_address, chainId: market.chain_id, tokens: market.tokens, decimals: market.tokens[0].decimals, feeRateBps: market.fee_rate_bps },
    maker: account.address,
    signatureType,
    ...o,
  });
  const signed = signOrder(built, account.privateKey);
  const item = {
    condition_id: market.condition_id, chain_id: market.chain_id, side: o.side, order_type: 'LIMIT', outcome: o.outcome, price: o.price, size: o.size,
    salt: built.order.salt.toString(), signer: account.address, taker: built.order.taker, token_id: built.order.tokenId.toString(),
    maker_amount: built.order.makerAmount.toString(), taker_amount: built.order.takerAmount.toString(), expiration: '0', nonce: built.order.nonce.toString(),
    fee_rate_bps: market.fee_rate_bps, signature_type: signatureType, signature: signed.signature,
  };
  return { item, hash: signed.orderHash, signed: { ...built.order, signature: signed.signature } };
}
