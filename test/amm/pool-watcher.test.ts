/**
 * The pool watcher on the real Temporal dev server, MongoDB and the embedded chain: every pool
 * trade becomes one public trade (`pool:{chain}:{tx}:{log}`), one print on the `trades` channel and
 * the ticker's last price, whether the watcher or a saved transaction saw it first, and a trade
 * mined while the worker is down is indexed once when a worker comes back.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Client, Connection } from '@temporalio/client';
import { NativeConnection, Worker } from '@temporalio/worker';
import type { Hex } from 'viem';
import { createActivities } from '../../activities';
import { poolWatchChainOf } from '../../src/amm/pool-logs';
import { poolTradeId } from '../../src/amm/pool-trade-recorder';
import { poolTradesOfTx } from '../../src/amm/pool-trades-of-tx';
import { poolWatcherWorkflowId } from '../../src/amm/pool-watcher-id';
import { ammPoolAbi } from '../../src/chain/generated';
import type { RealtimeEvent } from '../../src/ports/realtime-publisher';
import { createMarketModel, createPublicTradeModel, createSavedTradeModel, createTickerModel, createTradeTxModel, type MarketRecord } from '../../src/db/models';
import { createLogger } from '../../src/logging/logger';
import { startPoolWatcher } from '../../src/temporal/pool-watcher.client';
import { createTradeTxStarter } from '../../src/temporal/trade-tx.client';
import { saveTradeTx } from '../../src/trade/save-trade-tx';
import { tradeTxChainOf } from '../../src/trade/trade-tx-chain';
import { poolWatcherQuery } from '../../workflows/pool-watcher.workflow';
import { eventually } from '../helpers/eventually';
import { stopBeforeDatabaseCloses, useTestDatabase } from '../helpers/test-database';
import { testTemporalAddress, uniqueTaskQueue } from '../helpers/test-temporal';
import { E18, startPoolFixture, type PoolFixture } from './pool-fixture';
import { testWorkflowBundle } from '../helpers/workflow-bundle';


/** Scans run every few hundred ms; a loaded machine can take a minute. */
const WAIT = { timeoutMs: 60_000, everyMs: 200 };

describe('pool watcher', () => {
  const database = useTestDatabase('poolwatch');
  const taskQueue = uniqueTaskQueue('poolwatch');
  const published: RealtimeEvent[] = [];
  let fx: PoolFixture;
  let client: Client;
  let native: NativeConnection;
  let worker: { done: Promise<void>; stop(): Promise<void> } | undefined;
  let market: MarketRecord;

  async function startWorker() {
    const db = database.db();
    const port = fx.port;
    const activities = createActivities({
      db, logger: createLogger({ level: 'silent' }), publisher: { publish: async (events) => { published.push(...events); } },
      poolWatchChain: () => poolWatchChainOf(port.context, 1), tradeTxChain: () => tradeTxChainOf(port), decodePoolTrades: poolTradesOfTx(db, port.chainId),
    });
    const w = await Worker.create({ connection: native, taskQueue, workflowBundle: await testWorkflowBundle(), activities, shutdownGraceTime: '1s' });
    const done = w.run();
    return { done, stop: async () => { w.shutdown(); await done; } };
  }

  beforeAll(async () => {
    fx = await startPoolFixture({ feeBps: 200 });
    native = await NativeConnection.connect({ address: testTemporalAddress() });
    client = new Client({ connection: await Connection.connect({ address: testTemporalAddress() }) });
    const at = new Date();
    market = {
      chain_id: fx.port.chainId, condition_id: fx.condition.conditionId.toLowerCase(), question_id: fx.condition.questionId, question: 'Pool?',
      kind: 'AMM', status: 'OPEN', resolution_outcome: null, status_version: 1, fee_rate_bps: 200, summary: { en: 'Pool?' }, rules: { en: '' },
      tokens: [
        { outcome: 0, token_id: fx.condition.noTokenId.toString(), decimals: 18 },
        { outcome: 1, token_id: fx.condition.yesTokenId.toString(), decimals: 18 },
      ],
      collateral_token: fx.local.addresses.collateral.toLowerCase(), ctf_exchange_address: fx.local.addresses.exchange.toLowerCase(),
      conditional_tokens_address: fx.local.addresses.conditionalTokens.toLowerCase(), end_date: at, created_at: at, updated_at: at,
      amm: { pool_address: fx.pool.toLowerCase(), liquidity: '1000' },
    };
    await createMarketModel(database.db()).create(market);
    worker = await startWorker();
    stopBeforeDatabaseCloses(database.db(), async () => {
      await client.workflow.getHandle(poolWatcherWorkflowId(market.chain_id, market.condition_id)).terminate('test done').catch(() => undefined);
      await worker?.stop();
      await native.close();
      await client.connection.close();
      await fx.stop();
    });
  }, 120_000);

  const trades = () => createPublicTradeModel(database.db()).find({ condition_id: market.condition_id }).lean().exec();
  const prints = (tradeId: string) => published.filter((e) => e.channel === 'trades' && e.payload.trade_id === tradeId);
  const idOf = async (hash: Hex) => {
    const receipt = await fx.port.context.publicClient.getTransactionReceipt({ hash });
    const log = receipt.logs.find((l) => l.address.toLowerCase() === fx.pool.toLowerCase() && l.topics.length === 3)!;
    return poolTradeId(market.chain_id, hash, log.logIndex);
  };

  it('when a pool trade is saved and watched, and another is mined while the worker is down, then each is one public trade with one print, and the ticker follows the last', async () => {
    const [alice, bob] = fx.traders;
    const workflowId = poolWatcherWorkflowId(market.chain_id, market.condition_id);
    await startPoolWatcher(client, taskQueue, { chain_id: market.chain_id, condition_id: market.condition_id, pool_address: market.amm!.pool_address, pollMs: 100, windowMs: 1_000 });

    // A trade made before the watcher's first scan still counts: it starts below the pool's deployment.
    const first = await fx.send(alice, { address: fx.pool, abi: ammPoolAbi, functionName: 'buy', args: [10n * E18, 1n, 0n] });
    // The same trade saved by its wallet: the saved path and the watcher write one row.
    const txs = createTradeTxModel(database.db());
    await saveTradeTx({ txs, starter: createTradeTxStarter(client, taskQueue) }, { chain_id: market.chain_id, tx_hash: first, wallet: alice.address });
    const firstId = await idOf(first);
    await eventually('the saved transaction CONFIRMED', async () => ((await txs.findOne({ tx_hash: first.toLowerCase() }).lean().exec())?.status === 'CONFIRMED' ? true : undefined), WAIT);
    await eventually('the watcher past the first trade', async () => ((await client.workflow.getHandle(workflowId).query(poolWatcherQuery)).logs >= 1 ? true : undefined), WAIT);
    expect((await trades()).map((t) => t.trade_id)).toEqual([firstId]);
    expect(prints(firstId)).toHaveLength(1);
    expect((await txs.findOne({ tx_hash: first.toLowerCase() }).lean().exec())?.trade_ids).toEqual([firstId]);

    // The worker goes down; a sell is mined meanwhile; a new worker takes the watcher over.
    await worker!.stop();
    worker = undefined;
    const second = await fx.send(bob, { address: fx.pool, abi: ammPoolAbi, functionName: 'buy', args: [4n * E18, 0n, 0n] });
    const secondId = await idOf(second);
    await new Promise((r) => setTimeout(r, 500));
    expect((await trades()).map((t) => t.trade_id)).toEqual([firstId]);
    worker = await startWorker();
    await eventually('the trade mined while down', async () => ((await trades()).length === 2 ? true : undefined), WAIT);
    // Scans go on past it; nothing is written again.
    const view = await client.workflow.getHandle(workflowId).query(poolWatcherQuery);
    await eventually('two more scans', async () => ((await client.workflow.getHandle(workflowId).query(poolWatcherQuery)).scans >= view.scans + 2 ? true : undefined), WAIT);

    const rows = await trades();
    expect(rows.map((t) => t.trade_id).sort()).toEqual([firstId, secondId].sort());
    expect(prints(firstId)).toHaveLength(1);
    expect(prints(secondId)).toHaveLength(1);
    // Bob bought NO: the print is in YES terms, and the ticker's last price is that trade's.
    const bobTrade = rows.find((t) => t.trade_id === secondId)!;
    const ticker = await createTickerModel(database.db()).findOne({ condition_id: market.condition_id }).lean().exec();
    expect(Number(ticker?.last_price)).toBeCloseTo(Number(bobTrade.price), 2);
    const tickerEvents = published.filter((e) => e.channel === 'ticker');
    expect(tickerEvents.at(-1)).toMatchObject({ condition_id: market.condition_id, payload: { last_price: ticker?.last_price } });
    // Each trader has the trade as a saved trade, for average prices.
    const saved = await createSavedTradeModel(database.db()).find({ condition_id: market.condition_id }).lean().exec();
    expect(saved.map((s) => [s.trade_id, s.wallet]).sort()).toEqual([[firstId, alice.address.toLowerCase()], [secondId, bob.address.toLowerCase()]].sort());

    if (process.env.RECORD_HISTORIES === '1') {
      writeFileSync(join(__dirname, 'histories', 'pool-watcher.json'), JSON.stringify(await client.workflow.getHandle(workflowId).fetchHistory()));
    }
  }, 180_000);
});
