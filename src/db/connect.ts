import mongoose, { Connection } from 'mongoose';
import { AppError } from '../errors';
import { detectIndexPolicy } from './index-policy';

/**
 * One mongoose connection per process (or per test database). Models are registered on the
 * connection, not on the global mongoose, so tests can hold several databases at once.
 * `autoIndex` stays on: unique indexes (order hash, idempotency key) are correctness, not speed.
 */
export async function connectDatabase(uri: string, dbName: string, options: { maxPoolSize?: number; monitorCommands?: boolean } = {}): Promise<Connection> {
  const connection = mongoose.createConnection(uri, {
    dbName,
    monitorCommands: options.monitorCommands ?? false,
    serverSelectionTimeoutMS: 5_000,
    maxPoolSize: options.maxPoolSize,
    autoIndex: true,
    // FerretDB has no retryable-writes support; real MongoDB keeps its default.
    retryWrites: false,
  });
  try {
    await connection.asPromise();
    await detectIndexPolicy(connection);
  } catch (error) {
    await connection.close().catch(() => undefined);
    throw new AppError('SERVICE_DEGRADED', 'Database unreachable', undefined, { cause: error });
  }
  return connection;
}

/** Readiness: the database answers a ping. */
export async function pingDatabase(connection: Connection): Promise<void> {
  const db = connection.db;
  if (!db) throw new Error('database not connected');
  await db.admin().command({ ping: 1 });
}
