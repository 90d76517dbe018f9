import { NativeConnection, Worker } from '@temporalio/worker';
import { createActivities } from '../activities';
import { loadConfig, ConfigError } from '../src/config';
import { connectDatabase } from '../src/db/connect';
import { createLogger } from '../src/logging/logger';
import { mongoUriOf, temporalAddressOf } from '../src/runtime/endpoints';

/** The worker process: runs every workflow and activity on the service's task queue. */
async function main(): Promise<void> {
  const config = loadConfig();
  const logger = createLogger({ level: config.LOG_LEVEL, name: 'worker' });
  const db = await connectDatabase(mongoUriOf(config), config.MONGODB_DB);
  const connection = await NativeConnection.connect({ address: temporalAddressOf(config) });
  const worker = await Worker.create({
    connection,
    namespace: config.TEMPORAL_NAMESPACE,
    taskQueue: config.TEMPORAL_TASK_QUEUE,
    workflowsPath: require.resolve('../workflows'),
    activities: createActivities({ db, logger }),
  });
  // Worker.run handles SIGINT/SIGTERM itself: it stops polling, lets running tasks finish, resolves.
  logger.info({ taskQueue: config.TEMPORAL_TASK_QUEUE }, 'worker running');
  await worker.run();
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
