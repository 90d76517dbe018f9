import { randomBytes } from 'node:crypto';
import type { Connection } from 'mongoose';
import { connectDatabase } from '../../src/db/connect';
import { storeDuration, storeStatements } from '../../src/metrics/metrics';
import { observeStoreCommands } from '../../src/metrics/store-metrics';
import { testMongoUri } from '../helpers/test-database';

async function countOf(command: string, collection: string): Promise<number> {
  const { values } = await storeDuration.get();
  return values
    .filter((v) => v.metricName === 'predex_store_command_duration_seconds_count' && v.labels.command === command && v.labels.collection === collection)
    .reduce((a, v) => a + v.value, 0);
}

async function statementsOf(command: string, collection: string): Promise<number> {
  const { values } = await storeStatements.get();
  return values.filter((v) => v.labels.command === command && v.labels.collection === collection).reduce((a, v) => a + v.value, 0);
}

describe('store command metric', () => {
  let db: Connection;

  beforeAll(async () => {
    db = await connectDatabase(testMongoUri(), `storemetric_${randomBytes(4).toString('hex')}`, { monitorCommands: true });
    observeStoreCommands(db);
  });
  afterAll(async () => {
    await db.dropDatabase().catch(() => undefined);
    await db.close();
  });

  it('when commands run, then each is counted under its collection, a getMore under the cursor\'s', async () => {
    const before = { insert: await countOf('insert', 'metric_rows'), find: await countOf('find', 'metric_rows'), getMore: await countOf('getMore', 'metric_rows') };
    const rows = db.collection('metric_rows');
    await rows.insertMany(Array.from({ length: 5 }, (_, i) => ({ _id: `r${i}` as never })));
    await rows.find({}, { batchSize: 2 }).toArray();
    await db.db!.admin().ping();
    expect(await countOf('insert', 'metric_rows')).toBe(before.insert + 1);
    expect(await countOf('find', 'metric_rows')).toBe(before.find + 1);
    expect(await countOf('getMore', 'metric_rows')).toBeGreaterThan(before.getMore);
    expect(await countOf('ping', '')).toBeGreaterThan(0);
  });

  it('when a write command carries several statements, then each counts as a row of its collection', async () => {
    const rows = db.collection('metric_statements');
    await rows.insertMany(Array.from({ length: 7 }, (_, i) => ({ _id: `s${i}` as never })));
    await rows.bulkWrite([
      { updateOne: { filter: { _id: 's1' as never }, update: { $set: { n: 1 } } } },
      { updateOne: { filter: { _id: 's2' as never }, update: { $set: { n: 2 } } } },
      { updateMany: { filter: { _id: { $in: ['s3', 's4'] as never[] } }, update: { $set: { n: 3 } } } },
    ]);
    await rows.deleteMany({ _id: { $in: ['s5', 's6'] as never[] } });
    expect({ insert: await statementsOf('insert', 'metric_statements'), update: await statementsOf('update', 'metric_statements'), delete: await statementsOf('delete', 'metric_statements') })
      .toEqual({ insert: 7, update: 3, delete: 1 });
  });
});
