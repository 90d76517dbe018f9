/**
 * The AMM market setup workflow on the real Temporal dev server, MongoDB and the embedded chain:
 * a SEEDING AMM market gets its pool deployed and funded by the worker, then opens; running the
 * setup again deploys and funds nothing more.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Client, Connection } from '@temporalio/client';
import { NativeConnection, Worker } from '@temporalio/worker';
import { getAddress } from 'viem';
import { createAmmSetupActivities } from '../../activities/amm-setup.activities';
import { ammMarketSetupWorkflowId } from '../../src/amm/amm-setup-input';
import { createChainPort, questionIdOf, startLocalChain, type ChainPort, type LocalChain } from '../../src/chain';
import { ammPoolAbi } from '../../src/chain/generated';
import type { MarketRecord } from '../../src/db/models';
import { createMarketStore } from '../../src/markets/market-store';
import { createAmmSetupStarter } from '../../src/temporal/amm-setup.client';
import { useTestDatabase } from '../helpers/test-database';
import { testTemporalAddress, uniqueTaskQueue } from '../helpers/test-temporal';
import { testWorkflowBundle } from '../helpers/workflow-bundle';

const E18 = 10n ** 18n;

describe('AMM market setup workflow', () => {
  const database = useTestDatabase('ammsetup');
  let local: LocalChain;
  let port: ChainPort;
  let client: Client;
  let native: NativeConnection;
  let worker: Worker;
  let running: Promise<void>;
  const taskQueue = uniqueTaskQueue('amm');

  beforeAll(async () => {
    local = await startLocalChain({ port: 0, blockIntervalMs: 0 });
    port = createChainPort({ rpcUrl: local.rpcUrl, chainId: local.chainId, operatorKey: local.operatorKey, addresses: local.addresses, confirmations: 0, pollingIntervalMs: 20 });
    native = await NativeConnection.connect({ address: testTemporalAddress() });
    client = new Client({ connection: await Connection.connect({ address: testTemporalAddress() }) });
    worker = await Worker.create({
      connection: native, taskQueue, workflowBundle: await testWorkflowBundle(), shutdownGraceTime: '1s',
      activities: createAmmSetupActivities({ db: database.db(), chain: () => port.context }),
    });
    running = worker.run();
  });
  afterAll(async () => {
    worker.shutdown();
    await running;
    await native.close();
    await client.connection.close();
    await local.stop();
  });

  async function seedingMarket(): Promise<MarketRecord> {
    const condition = await port.prepareCondition(questionIdOf(`amm setup ${Math.random()}`));
    const at = new Date();
    const record: MarketRecord = {
      chain_id: local.chainId, condition_id: condition.conditionId.toLowerCase(), question_id: condition.questionId, question: 'Pool?',
      kind: 'AMM', status: 'SEEDING', resolution_outcome: null, status_version: 0, fee_rate_bps: 150,
      summary: { en: 'Pool?' }, rules: { en: '' },
      tokens: [
        { outcome: 0, token_id: condition.noTokenId.toString(), decimals: 18 },
        { outcome: 1, token_id: condition.yesTokenId.toString(), decimals: 18 },
      ],
      collateral_token: local.addresses.collateral.toLowerCase(), ctf_exchange_address: local.addresses.exchange.toLowerCase(),
      conditional_tokens_address: local.addresses.conditionalTokens.toLowerCase(), end_date: at, created_at: at, updated_at: at, amm: null,
    };
    await createMarketStore(database.db()).markets.create(record);
    return record;
  }

  it('when an AMM market is SEEDING, then the worker deploys and funds its pool and opens it; a second run changes nothing', async () => {
    const market = await seedingMarket();
    const input = { chain_id: market.chain_id, condition_id: market.condition_id, fee_rate_bps: 150, liquidity: (250n * E18).toString(), mint: true, actor: 'ops' };
    await createAmmSetupStarter(client, taskQueue).start(input);
    const workflowId = ammMarketSetupWorkflowId(market.chain_id, market.condition_id);
    const first = await client.workflow.getHandle(workflowId).result();
    expect(first.status).toBe('OPEN');

    const store = createMarketStore(database.db());
    const stored = await store.markets.findOne({ condition_id: market.condition_id }).lean<MarketRecord>().exec();
    expect(stored).toMatchObject({ status: 'OPEN', status_version: 1, amm: { pool_address: first.pool_address, liquidity: '250' } });
    const change = await store.statusChanges.findOne({ condition_id: market.condition_id, to_status: 'OPEN' }).lean().exec();
    expect(change).toMatchObject({ from_status: 'SEEDING', actor: 'ops', via: 'amm-setup' });
    const pool = getAddress(first.pool_address);
    const read = (functionName: 'totalShares' | 'feeBps' | 'conditionId') =>
      port.context.publicClient.readContract({ address: pool, abi: ammPoolAbi, functionName });
    expect(await read('totalShares')).toBe(250n * E18);
    expect(await read('feeBps')).toBe(150n);
    expect(String(await read('conditionId')).toLowerCase()).toBe(market.condition_id);

    if (process.env.RECORD_HISTORIES === '1') {
      writeFileSync(join(__dirname, 'histories', 'amm-setup.json'), JSON.stringify(await client.workflow.getHandle(workflowId).fetchHistory()));
    }

    // The same market set up again (a repeated admin call, a restarted start): the same pool, funded once.
    const nonceBefore = await port.context.publicClient.getTransactionCount({ address: port.operatorAddress });
    await createAmmSetupStarter(client, taskQueue).start(input);
    const second = await client.workflow.getHandle(workflowId).result();
    expect(second).toEqual({ pool_address: first.pool_address, status: 'UNCHANGED' });
    expect(await read('totalShares')).toBe(250n * E18);
    expect(await port.context.publicClient.getTransactionCount({ address: port.operatorAddress })).toBe(nonceBefore);
  });
});
