import type { Connection } from 'mongoose';
import type { ApiConfig } from '../config';
import { connectDatabase } from '../db/connect';
import { logSlowCommands } from '../db/slow-commands';
import type { Logger } from '../logging/logger';
import { observeStoreCommands } from '../metrics/store-metrics';
import { mongoUriOf } from './endpoints';

/** The process's database connection as configured (pool size, slow-command log, command latency metrics). */
export async function databaseFromConfig(config: ApiConfig, logger: Logger): Promise<Connection> {
  const slowMs = config.MONGODB_SLOW_MS;
  const db = await connectDatabase(mongoUriOf(config), config.MONGODB_DB, { maxPoolSize: config.MONGODB_MAX_POOL_SIZE, monitorCommands: true });
  observeStoreCommands(db);
  if (slowMs !== undefined) logSlowCommands(db, logger, slowMs);
  return db;
}
