/**
 * The embedded stack as `npm start` wires it, inside one jest file: a local chain with the
 * contracts, a worker running the real market and settlement activities, and the API process's
 * own composition (composeApi) on a free port. Orders go in over HTTP and settle on the chain.
 */
import { NativeConnection, Worker } from '@temporalio/worker';
import { SignJWT } from 'jose';
import type { Address, Hex } from 'viem';
import { createActivities } from '../../activities';
import { startApiServer, type RunningApi } from '../../src/api/server';
import { startLocalChain, type LocalChain } from '../../src/chain';
import { loadConfig, type Config } from '../../src/config';
import { freePort } from '../../src/embedded/free-port';
import { createRealtimePublisher } from '../../src/gateway';
import { createLogger } from '../../src/logging/logger';
import { chainPortFromConfig } from '../../src/runtime/chain-from-config';
import { composeApi, type ApiComposition } from '../../src/runtime/compose-api';
import { createChainSettlement } from '../../src/settlement/viem-settlement-port';
import { buildOrder, signOrder } from '../../src/signing';
import { connectTemporal, type TemporalHandle } from '../../src/temporal/connect';
import { stopBeforeDatabaseCloses, useTestDatabase } from './test-database';
import { testTemporalAddress, uniqueTaskQueue } from './test-temporal';
import { startSettlementWorker } from './settlement-worker';

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
}

export interface TradingStack {
  api: RunningApi;
  chain: LocalChain;
  config: Config;
  jwtFor(wallet: Address): Promise<string>;
  call(method: string, path: string, options?: { jwt?: string; admin?: boolean; body?: unknown }): Promise<{ status: number; body: Record<string, any> }>;
  /** A POST /v1/orders item signed by `account`, and its order hash. */
  signedItem(account: { address: Address; privateKey: Hex }, market: TradableMarket, terms: OrderTerms): { item: Record<string, unknown>; hash: Hex };
}

/**
 * Starts the stack before the file's tests and stops it before the test database closes.
 * `env` adds to the configuration (e.g. LOCAL_DEV_CHAIN: 'true' seeds the demo market as `npm start` does).
 */
export function useTradingStack(prefix: string, env: Record<string, string> = {}): () => TradingStack {
  const database = useTestDatabase(prefix);
  const logger = createLogger({ level: 'silent' });
  let stack: TradingStack | undefined;

  beforeAll(async () => {
    const chain = await startLocalChain({ port: await freePort(), chainId: 56, blockIntervalMs: 200 });
    const config = loadConfig({
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
    });
    const db = database.db();
    const chainPort = chainPortFromConfig(config);
    const native = await NativeConnection.connect({ address: testTemporalAddress() });
    const activities = createActivities({
      db,
      logger,
      chain: createChainSettlement(() => chainPort, config.CHAIN_CONFIRMATIONS),
      conditionChain: () => chainPort,
      publisher: createRealtimePublisher({ db, logger }),
      chainPollMs: 200,
    });
    const worker = await Worker.create({ connection: native, taskQueue: config.TEMPORAL_TASK_QUEUE, workflowsPath: require.resolve('../../workflows'), activities });
    const settlement = await startSettlementWorker(native, config.TEMPORAL_TASK_QUEUE, activities);
    const workerRun = worker.run();
    const temporal: TemporalHandle = await connectTemporal(testTemporalAddress(), 'default');
    const composition: ApiComposition = await composeApi(config, { db, temporal, chain: chainPort, logger });
    const api = await startApiServer({ host: '127.0.0.1', port: 0, logger, ...composition });
    stopBeforeDatabaseCloses(db, async () => {
      await api.close();
      await composition.close();
      worker.shutdown();
      settlement.worker.shutdown();
      await workerRun;
      await settlement.done;
      await temporal.close();
      await native.close();
      await chain.stop();
    });
    stack = { api, chain, config, jwtFor, call: (method, path, options) => call(api.url, method, path, options), signedItem };
  }, 180_000);

  return () => {
    if (!stack) throw new Error('the trading stack did not start (see beforeAll)');
    return stack;
  };
}

const jwtFor = (wallet: Address) =>
  new SignJWT({ wallet_address: wallet }).setProtectedHeader({ alg: 'HS256' }).setExpirationTime('10m').sign(new TextEncoder().encode(STACK_JWT_SECRET));

async function call(base: string, method: string, path: string, options: { jwt?: string; admin?: boolean; body?: unknown } = {}) {
  const headers: Record<string, string> = { 'content-type': 'application/json' };
  if (options.jwt) headers.authorization = `Bearer ${options.jwt}`;
  if (options.admin) headers['x-admin-token'] = STACK_ADMIN_TOKEN;
  const res = await fetch(`${base}${path}`, { method, headers, body: options.body === undefined ? undefined : JSON.stringify(options.body) });
  return { status: res.status, body: (await res.json()) as Record<string, any> };
}

function signedItem(account: { address: Address; privateKey: Hex }, market: TradableMarket, o: OrderTerms) {
  const built = buildOrder({
    market: { exchange: market.ctf_exchange_address, chainId: market.chain_id, tokens: market.tokens, decimals: market.tokens[0].decimals, feeRateBps: market.fee_rate_bps },
    maker: account.address,
    ...o,
  });
  const signed = signOrder(built, account.privateKey);
  const item = {
    condition_id: market.condition_id, chain_id: market.chain_id, side: o.side, order_type: 'LIMIT', outcome: o.outcome, price: o.price, size: o.size,
    salt: built.order.salt.toString(), signer: account.address, taker: built.order.taker, token_id: built.order.tokenId.toString(),
    maker_amount: built.order.makerAmount.toString(), taker_amount: built.order.takerAmount.toString(), expiration: '0', nonce: '0',
    fee_rate_bps: market.fee_rate_bps, signature_type: 0, signature: signed.signature,
  };
  return { item, hash: signed.orderHash };
}
