/**
 * The embedded stack for the client's, the command line's and the bots' tests, wired as `npm start`
 * wires it: a local chain, the API (composeApi) on a random port, the worker with settlement, and
 * an OPEN market. Traders are Hardhat dev accounts funded and approved on that chain.
 */
import { NativeConnection, Worker } from '@temporalio/worker';
import { SignJWT } from 'jose';
import type { Address, Hex } from 'viem';
import { createActivities } from '../../activities';
import { startApiServer, type RunningApi } from '../../src/api/server';
import { startLocalChain, type ChainPort, type LocalChain } from '../../src/chain';
import { loadConfig } from '../../src/config';
import { freePort } from '../../src/embedded/free-port';
import { createRealtimePublisher } from '../../src/gateway';
import { createLogger } from '../../src/logging/logger';
import { chainPortFromConfig } from '../../src/runtime/chain-from-config';
import { composeApi, type ApiComposition } from '../../src/runtime/compose-api';
import { createChainSettlement } from '../../src/settlement/chain-settlement';
import { connectTemporal, type TemporalHandle } from '../../src/temporal/connect';
import { startSettlementWorker } from '../helpers/settlement-worker';
import { stopBeforeDatabaseCloses, useTestDatabase } from '../helpers/test-database';
import { testTemporalAddress, uniqueTaskQueue } from '../helpers/test-temporal';

export const JWT_SECRET = 'client-jwt-secret-0123456789abcdef-0123456789';
const ADMIN = 'client-admin-token-0123456789abcdef-0123456789';

export interface Stack {
  url: string;
  chain: LocalChain;
  port: ChainPort;
  /** condition_id of the OPEN market the stack created. */
  market: string;
  /** Dev account i (1..), funded with collateral and approved for the exchange. */
  trader(i: number): Promise<{ address: Address; privateKey: Hex }>;
  jwt(wallet: Address): Promise<string>;
}

export function useClientStack(prefix: string): () => Stack {
  const database = useTestDatabase(prefix);
  const logger = createLogger({ level: 'silent' });
  let stack: Stack | undefined;
  let chain: LocalChain;
  let temporal: TemporalHandle;
  let composition: ApiComposition;
  let api: RunningApi;
  let worker: Worker;
  let workerRun: Promise<void>;
  let settlement: Awaited<ReturnType<typeof startSettlementWorker>> | undefined;

  beforeAll(async () => {
    chain = await startLocalChain({ port: await freePort(), chainId: 56, blockIntervalMs: 200 });
    const config = loadConfig({
      CHAIN_RPC_URL: chain.rpcUrl, OPERATOR_PRIVATE_KEY: chain.operatorKey, EXCHANGE_ADDRESS: chain.addresses.exchange,
      COLLATERAL_ADDRESS: chain.addresses.collateral, CONDITIONAL_TOKENS_ADDRESS: chain.addresses.conditionalTokens,
      CHAIN_CONFIRMATIONS: '1', TEMPORAL_TASK_QUEUE: uniqueTaskQueue(prefix), AUTH_JWT_SECRET: JWT_SECRET,
      API_KEY_PEPPER: 'client-pepper-0123456789abcdef-0123456789ab', ADMIN_TOKEN: ADMIN, LOG_LEVEL: 'silent',
    });
    const db = database.db();
    // Everything stops before the test database closes under it.
    stopBeforeDatabaseCloses(db, async () => {
      await api?.close();
      await composition?.close();
      worker?.shutdown();
      settlement?.worker.shutdown();
      await workerRun;
      await settlement?.done;
      await temporal?.close();
      await chain?.stop();
    });
    const port = chainPortFromConfig(config);
    const native = await NativeConnection.connect({ address: testTemporalAddress() });
    const activities = createActivities({
      db, logger, chain: createChainSettlement(() => port, config.CHAIN_CONFIRMATIONS), conditionChain: () => port,
      publisher: createRealtimePublisher({ db, logger }), chainPollMs: 200,
    });
    worker = await Worker.create({ connection: native, taskQueue: config.TEMPORAL_TASK_QUEUE, workflowsPath: require.resolve('../../workflows'), activities, shutdownGraceTime: '1s' });
    settlement = await startSettlementWorker(native, config.TEMPORAL_TASK_QUEUE, activities);
    workerRun = worker.run();
    temporal = await connectTemporal(testTemporalAddress(), 'default');
    composition = await composeApi(config, { db, temporal, chain: port, logger });
    api = await startApiServer({ host: '127.0.0.1', port: 0, logger, ...composition });
    const created = await fetch(`${api.url}/admin/markets`, {
      method: 'POST', headers: { 'content-type': 'application/json', 'x-admin-token': ADMIN },
      body: JSON.stringify({ question: 'Will the client trade?', end_date: '2030-01-01T00:00:00Z', fee_rate_bps: 100 }),
    });
    if (created.status !== 201) throw new Error(`market not created: ${created.status} ${await created.text()}`);
    const market = ((await created.json()) as { condition_id: string }).condition_id;
    const funded = new Map<number, Promise<void>>();
    stack = {
      url: api.url, chain, port, market,
      trader: async (i) => {
        const account = chain.accounts[i];
        if (!funded.has(i)) funded.set(i, port.fundWallet(account.address, 1_000n * 10n ** 18n, { privateKey: account.privateKey }));
        await funded.get(i);
        return { address: account.address, privateKey: account.privateKey };
      },
      jwt: (wallet) => new SignJWT({ wallet_address: wallet }).setProtectedHeader({ alg: 'HS256' }).setExpirationTime('1h').sign(new TextEncoder().encode(JWT_SECRET)),
    };
  }, 180_000);

  return () => {
    if (!stack) throw new Error('the client stack is not up yet (use inside tests)');
    return stack;
  };
}

export async function eventually<T>(what: string, probe: () => T | undefined | Promise<T | undefined>, timeoutMs = 60_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}
