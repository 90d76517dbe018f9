import { join } from 'node:path';
import { Client, Connection } from '@temporalio/client';
import { DefaultLogger, NativeConnection, Runtime, Worker } from '@temporalio/worker';
import { createActivities } from '../activities';
import { watchChainOf } from '../activities/chain-watcher.activities';
import { loadConfig, ConfigError } from '../src/config';
import { createLogger } from '../src/logging/logger';
import { settlementTaskQueue } from '../src/matching/market-ids';
import { startStageTimings } from '../src/logging/stage-timings';
import { ensureMatchingIndexes, matchingCollections } from '../src/matching/collections';
import { assertNoDevKeyOffEmbeddedChain, chainPortFromConfig } from '../src/runtime/chain-from-config';
import { databaseFromConfig } from '../src/runtime/database-from-config';
import { temporalAddressOf } from '../src/runtime/endpoints';
import { createRealtimePublisher } from '../src/gateway';
import { createChainSettlement } from '../src/settlement/viem-settlement-port';
import { tradeTxChainOf } from '../src/trade/trade-tx-chain';
import { startChainWatcher } from '../src/temporal/chain-watcher.client';
import { startHandoffSweeper } from '../src/temporal/handoff-sweeper';
import { heartbeatTaskQueue } from '../src/temporal/heartbeat.client';
import { createMarketMatcherClient } from '../src/temporal/market-matcher.client';
import { workflowStackTraces } from '../src/temporal/workflow-stack-traces';
import { WORKFLOW_BUNDLE_FILE, workflowCodeFor } from '../src/temporal/workflow-bundle';
import { exitWithSupervisor } from '../src/supervisor/exit-with-supervisor';
import { pingDatabase } from '../src/db/connect';
import { poolTradesOfTx } from '../src/amm/pool-trades-of-tx';
import { poolWatchChainOf } from '../src/amm/pool-logs';
import { ensurePoolWatchers } from '../src/temporal/pool-watcher.client';
import { backfillPositions } from '../src/positions/backfill-positions';
import { sdkTelemetry, startWorkerMetrics } from '../src/metrics/worker-metrics';

/**
 * The worker process: runs every workflow and activity on the service's task queue (settlement's
 * activities and the dead-man switches on queues of their own), and the hand-off sweeper that
 * re-sends orders whose hand-off to their market workflow was lost.
 */
async function main(): Promise<void> {
  exitWithSupervisor();
  const config = loadConfig();
  assertNoDevKeyOffEmbeddedChain(config);
  const logger = createLogger({ level: config.LOG_LEVEL, name: 'worker' });
  // The SDK logs its workflow bundling and state changes at INFO; keep them for debugging only.
  const sdk = await sdkTelemetry(config.WORKER_METRICS_PORT);
  Runtime.install({ telemetryOptions: sdk.telemetryOptions, logger: new DefaultLogger(config.LOG_LEVEL === 'trace' ? 'TRACE' : config.LOG_LEVEL === 'debug' ? 'DEBUG' : 'WARN') });
  const stopTimings = startStageTimings(logger, config.STAGE_TIMINGS_S);
  const db = await databaseFromConfig(config, logger);
  const collections = matchingCollections(db);
  await ensureMatchingIndexes(collections);
  // Before any fill is recorded: positions whose fills came before position rows get their rows.
  await backfillPositions(db.db!, logger);
  const address = temporalAddressOf(config);
  const connection = await NativeConnection.connect({ address });
  const clientConnection = await Connection.connect({ address });
  const client = new Client({ connection: clientConnection, namespace: config.TEMPORAL_NAMESPACE });
  const chainPort = chainPortFromConfig(config);
  const chain = createChainSettlement(() => chainPort, config.CHAIN_CONFIRMATIONS);
  const publisher = createRealtimePublisher({ db, logger });
  // The sweeper's hand-offs: held by a market's workflow while it continues as new, like the API's.
  const matcher = createMarketMatcherClient(client, config.TEMPORAL_TASK_QUEUE);
  const watchedChain = watchChainOf(chainPort);
  const tradeTxChain = tradeTxChainOf(chainPort);
  const poolWatchChain = poolWatchChainOf(chainPort.context, config.CHAIN_CONFIRMATIONS);
  const activities = createActivities({
    db, logger, chain, publisher, handoffs: matcher, settlementYieldMs: config.SETTLEMENT_YIELD_MS, watchedChain: () => watchedChain,
    tradeTxChain: () => tradeTxChain,
    decodePoolTrades: poolTradesOfTx(db, chainPort.chainId),
    operatorChain: () => chainPort.context,
    conditionChain: () => chainPort,
    poolWatchChain: () => poolWatchChain,
  });
  // The bundle `npm run build` made, if it still matches the workflow files (src/temporal/workflow-bundle.ts).
  const code = workflowCodeFor(require.resolve('../workflows'), join(__dirname, '..', WORKFLOW_BUNDLE_FILE));
  // A built worker always has its bundle: bundling at start costs every restart ~2 s, so say why.
  if (!code.prebuilt) logger.warn({ reason: code.reason }, 'bundling the workflow code at start');
  const worker = await Worker.create({
    connection,
    namespace: config.TEMPORAL_NAMESPACE,
    taskQueue: config.TEMPORAL_TASK_QUEUE,
    ...(code.prebuilt ? { workflowBundle: code.workflowBundle } : { workflowsPath: code.workflowsPath }),
    activities,
    // Most running activities are settlement waits (receipt and confirmation polls, asleep between
    // polls); at the SDK's default of 100 slots they queued the market steps' own activities behind
    // them (seen in bench:e2e as seconds between a POST and its match under settlement backlog).
    maxConcurrentActivityTaskExecutions: 1_000,
  });
  // Settlement's activities, on their own queue, a bounded number at a time (docs/matching.md).
  const settlementWorker = await Worker.create({
    connection,
    namespace: config.TEMPORAL_NAMESPACE,
    taskQueue: settlementTaskQueue(config.TEMPORAL_TASK_QUEUE),
    activities,
    maxConcurrentActivityTaskExecutions: config.SETTLEMENT_ACTIVITY_SLOTS,
  });
  // The dead-man switches, on their own queue: their timers and arms never wait behind market steps.
  const heartbeatWorker = await Worker.create({
    connection,
    namespace: config.TEMPORAL_NAMESPACE,
    taskQueue: heartbeatTaskQueue(config.TEMPORAL_TASK_QUEUE),
    ...(code.prebuilt ? { workflowBundle: code.workflowBundle } : { workflowsPath: code.workflowsPath }),
    activities,
  });
  const sweeper = startHandoffSweeper({ collections, matcher, logger });
  // The chain's watcher (docs/chain-watcher.md): started once, found running by every later start.
  await startChainWatcher(client, config.TEMPORAL_TASK_QUEUE, { chainId: config.CHAIN_ID, reorgDepth: config.CHAIN_CONFIRMATIONS });
  // Every OPEN AMM market's pool watcher (docs/amm.md): the running ones are kept.
  await ensurePoolWatchers(client, config.TEMPORAL_TASK_QUEUE, db, config.CHAIN_ID);
  const metrics = await startWorkerMetrics({
    host: config.HOST, port: config.WORKER_METRICS_PORT, logger, sdk,
    readiness: [
      { name: 'mongodb', check: () => pingDatabase(db) },
      { name: 'workers', check: async () => { if ([worker, settlementWorker, heartbeatWorker].some((w) => w.getState() !== 'RUNNING')) throw new Error('not polling'); } },
    ],
  });
  // Worker.run handles SIGINT/SIGTERM itself: it stops polling, lets running tasks finish, resolves.
  logger.info({ taskQueue: config.TEMPORAL_TASK_QUEUE, workflowStackTraces: workflowStackTraces(), prebuiltWorkflowBundle: code.prebuilt }, 'worker running');
  try {
    await Promise.all([worker.run(), settlementWorker.run(), heartbeatWorker.run()]);
  } finally {
    await sweeper.stop();
    await metrics?.close();
    stopTimings();
  }
  await clientConnection.close();
  await connection.close();
  await db.close();
  logger.info('worker stopped');
}

main().catch((error: unknown) => {
  if (error instanceof ConfigError) {
    process.stderr.write(`${error.message}\n`);
    process.exit(2);
  }
  process.stderr.write(`worker failed: ${error instanceof Error ? error.stack : String(error)}\n`);
  process.exit(1);
});
