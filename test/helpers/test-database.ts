import { randomBytes } from 'node:crypto';
import type { Connection } from 'mongoose';
import { connectDatabase } from '../../src/db/connect';

export function testMongoUri(): string {
  const uri = process.env.TEST_MONGODB_URI;
  if (!uri) throw new Error('TEST_MONGODB_URI is unset: run through jest (global setup starts the servers), not with TEST_SERVICES=none');
  return uri;
}

/** Per connection, what must stop before it closes (workers whose activities still use it). */
const usersOf = new WeakMap<Connection, (() => Promise<unknown>)[]>();

/**
 * Runs `stop` before the test database behind `db` is dropped and closed. Jest runs a block's
 * afterAll hooks in the order they were declared, and `useTestDatabase` comes first: a worker
 * stopped after the database closed had a market step in flight retry its writes against a closed
 * client for good, and its shutdown hung the file (seen under load in CI).
 */
export function stopBeforeDatabaseCloses(db: Connection, stop: () => Promise<unknown>): void {
  usersOf.set(db, [...(usersOf.get(db) ?? []), stop]);
}

/**
 * A database of its own for one test file: created on first use, dropped after the file.
 * Call at the top of a describe block; `db()` returns the live connection.
 */
export function useTestDatabase(prefix = 't'): { db: () => Connection; name: string } {
  const name = `${prefix}_${randomBytes(6).toString('hex')}`;
  let connection: Connection | undefined;
  beforeAll(async () => {
    connection = await connectDatabase(testMongoUri(), name);
  });
  afterAll(async () => {
    if (!connection) return;
    for (const stop of usersOf.get(connection) ?? []) await stop();
    await connection.dropDatabase().catch(() => undefined);
    await connection.close();
  });
  return {
    name,
    db: () => {
      if (!connection) throw new Error('test database not connected yet (use inside tests or hooks)');
      return connection;
    },
  };
}
