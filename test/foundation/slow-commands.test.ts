import { randomBytes } from 'node:crypto';
import type { Connection } from 'mongoose';
import { connectDatabase } from '../../src/db/connect';
import { logSlowCommands } from '../../src/db/slow-commands';
import type { Logger } from '../../src/logging/logger';
import { testMongoUri } from '../helpers/test-database';

describe('slow database command log (MONGODB_SLOW_MS)', () => {
  let db: Connection;
  const lines: { fields: Record<string, unknown>; message: string }[] = [];
  const logger = { warn: (fields: Record<string, unknown>, message: string) => lines.push({ fields, message }) } as unknown as Logger;

  beforeAll(async () => {
    db = await connectDatabase(testMongoUri(), `slow_${randomBytes(4).toString('hex')}`, { monitorCommands: true });
  });
  afterAll(async () => {
    await db.dropDatabase().catch(() => undefined);
    await db.close();
  });

  it('when a command takes longer than the threshold, then it is logged with its collection and filter field names but no values', async () => {
    logSlowCommands(db, logger, 0); // every command is "slow" at 0 ms
    const wallets = db.collection('wallets');
    await wallets.insertOne({ _id: 'w1' as never, secret_hash: 'deadbeef', status: 'OPEN' });
    await wallets.find({ _id: 'w1' as never, status: 'OPEN' }).toArray();
    await wallets.updateOne({ secret_hash: 'deadbeef' }, { $set: { status: 'DONE' } });
    const find = lines.find((l) => l.fields.command === 'find');
    expect(find).toMatchObject({ message: 'slow database command', fields: { collection: 'wallets', filter: ['_id', 'status'], failed: false } });
    expect(typeof find!.fields.ms).toBe('number');
    expect(lines.find((l) => l.fields.command === 'update')?.fields.filter).toEqual(['secret_hash']);
    expect(JSON.stringify(lines)).not.toMatch(/deadbeef|"w1"/);
  });
});
