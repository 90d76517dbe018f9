import type { Connection } from 'mongoose';
import type { Config } from '../config';
import { connectDatabase } from '../db/connect';
import { logSlowCommands } from '../db/slow-commands';
import type { Logger } from '../logging/logger';
import { mongoUriOf } from './endpoints';

/** The process's database connection as configured (pool size, slow-command log). */
export async function databaseFromConfig(config: Config, logger: Logger): Promise<Connection> {
  const slowMs = config.MONGODB_SLOW_MS;
  const db = await connectDatabase(mongoUriOf(config), config.MONGODB_DB, { maxPoolSize: config.MONGODB_MAX_POOL_SIZE, monitorCommands: slowMs !== undefined });
  if (slowMs !== undefined) logSlowCommands(db, logger, slowMs);
  return db;
}
