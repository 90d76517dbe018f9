import { existsSync } from 'node:fs';
import { pingDatabase } from '../../src/db/connect';
import { connectTemporal, pingTemporal } from '../../src/temporal/connect';
import { toolBinaryPath } from '../../src/tools/ensure-go-tool';
import { FERRETDB, TEMPORAL_CLI } from '../../src/tools/tool-versions';
import { useTestDatabase } from '../helpers/test-database';
import { testTemporalAddress } from '../helpers/test-temporal';

describe('real servers under the tests', () => {
  const { db } = useTestDatabase();

  it('when the tests run, then the MongoDB-compatible server stores and unique-indexes documents', async () => {
    await pingDatabase(db());
    const things = db().collection('things');
    await things.createIndex({ key: 1 }, { unique: true });
    await things.insertOne({ key: 'a', value: '1' });
    await expect(things.insertOne({ key: 'a', value: '2' })).rejects.toMatchObject({ code: 11000 });
    expect(await things.findOne({ key: 'a' }, { projection: { _id: 0 } })).toEqual({ key: 'a', value: '1' });
  });

  it('when the tests run, then the Temporal server answers', async () => {
    const temporal = await connectTemporal(testTemporalAddress(), 'default');
    try {
      await pingTemporal(temporal.connection);
      const info = await temporal.connection.workflowService.getSystemInfo({});
      expect(info.serverVersion).toMatch(/^\d+\.\d+/);
    } finally {
      await temporal.close();
    }
  });

  it('when the embedded tools were built, then they sit in the cache keyed by version', () => {
    if (process.env.TEMPORAL_ADDRESS || process.env.MONGODB_URI) return; // external servers: nothing built
    expect(toolBinaryPath(TEMPORAL_CLI)).toMatch(/temporal-v1\.5\.1\/temporal$/);
    expect(toolBinaryPath(FERRETDB)).toMatch(/ferretdb-v1\.24\.2-patched8\/ferretdb$/);
    expect(existsSync(toolBinaryPath(TEMPORAL_CLI))).toBe(true);
    expect(existsSync(toolBinaryPath(FERRETDB))).toBe(true);
  });
});

describe('the embedded FerretDB build', () => {
  const { db } = useTestDatabase();

  it('when a document is looked up by _id, then SQLite searches the unique _id index instead of scanning the table', async () => {
    if (process.env.MONGODB_URI) return; // a real MongoDB: nothing patched
    const things = db().collection<{ _id: string; n: number }>('lookups');
    await things.insertMany(Array.from({ length: 50 }, (_, n) => ({ _id: `t${n}`, n })));
    const explained = await db().db!.command({ explain: { find: 'lookups', filter: { _id: 't7' } } });
    const plan = JSON.stringify(explained.queryPlanner);
    expect(plan).toMatch(/USING INDEX/);
    expect(plan).not.toMatch(/detail=SCAN/);
    expect(await things.findOne({ _id: 't7' })).toEqual({ _id: 't7', n: 7 });
  });

  it('when documents of every stored type are written and read back, then each value comes back exactly (strings with escapes and any Unicode included)', async () => {
    const { Long } = (await import('mongoose')).mongo;
    const texts = ['plain', '', 'quote " and backslash \\', 'tab\tnew\nline', 'control \u0001', 'é 日本 😀', '<html> & \u2028', '0x' + 'ab'.repeat(32)];
    const rows = texts.map((text, n) => ({
      _id: `v${n}`, text, n, big: Long.fromString('9007199254740993'), negative: -n - 1, double: n + 0.25, flag: n % 2 === 0,
      at: new Date(1_795_387_940_611 + n), nothing: null, nested: { text, list: [text, n, { deep: text }] }, empty: {}, none: [],
    }));
    const things = db().collection<{ _id: string; text?: string }>('round_trip');
    await things.insertMany(rows.map((r) => ({ ...r })));
    const back = await things.find({}, { promoteLongs: false }).sort({ n: 1 }).toArray();
    expect(back).toEqual(rows);
    await things.updateOne({ _id: 'v2' }, { $set: { text: 'changed \\ "' } });
    expect((await things.findOne({ _id: 'v2' }))?.text).toBe('changed \\ "');
  });

  it('when a query pins string fields down, then SQLite narrows the rows first and the answer is still exactly MongoDB\'s (arrays included)', async () => {
    if (process.env.MONGODB_URI) return; // a real MongoDB: nothing patched
    type Row = { _id: string; market: unknown; status?: unknown; n: number };
    const rows = db().collection<Row>('pinned');
    await rows.insertMany([
      { _id: 'a1', market: 'm1', status: 'OPEN', n: 1 },
      { _id: 'a2', market: 'm1', status: 'FILLED', n: 2 },
      { _id: 'a3', market: 'm2', status: 'OPEN', n: 3 },
      { _id: 'a4', market: ['m0', 'm1'], status: 'OPEN', n: 4 }, // an array containing m1 matches {market: 'm1'}
      { _id: 'a5', market: { m1: true }, status: 'OPEN', n: 5 }, // an object does not
      { _id: 'a6', market: 'm1', n: 6 }, // no status: never equal to a string
      { _id: 'a7', market: 'M1', status: 'OPEN', n: 7 }, // case matters
      { _id: 'a8', market: 'm1"', status: 'OPEN', n: 8 }, // quotes and escapes are compared as text
    ]);
    const ids = async (filter: object) => (await rows.find(filter).sort({ n: 1 }).toArray()).map((r) => r._id);
    expect(await ids({ market: 'm1' })).toEqual(['a1', 'a2', 'a4', 'a6']);
    expect(await ids({ market: 'm1', status: { $in: ['OPEN', 'PARTIALLY_FILLED'] } })).toEqual(['a1', 'a4']);
    expect(await ids({ market: { $in: ['m2', 'm1"'] }, n: { $gt: 2 } })).toEqual(['a3', 'a8']);
    expect(await ids({ _id: { $in: ['a1', 'a3'] }, market: 'm1' })).toEqual(['a1']);
    expect(await ids({ status: 'OPEN', $or: [{ n: 1 }, { n: 7 }] })).toEqual(['a1', 'a7']);
    const explained = await db().db!.command({ explain: { find: 'pinned', filter: { market: 'm1', status: { $in: ['OPEN'] } } } });
    expect(explained.filterPushdown).toBe(true);
  });

  it('when an update command changes many documents, then every statement applies as MongoDB would: its own filter, statements on one document in turn, counts exact', async () => {
    // The build writes a command's changes in one SQLite transaction when no statement can see
    // another's (disjoint _ids, no upserts); the answers must be the same either way.
    type Row = { _id: string; status: string; n: number };
    const rows = db().collection<Row>('batched_updates');
    await rows.insertMany(Array.from({ length: 6 }, (_, i) => ({ _id: `u${i}`, status: i === 2 ? 'FILLED' : 'OPEN', n: 0 })));
    const disjoint = await rows.bulkWrite([
      { updateOne: { filter: { _id: 'u0', status: 'OPEN' }, update: { $set: { n: 1 } } } },
      { updateOne: { filter: { _id: 'u1', status: 'OPEN' }, update: { $inc: { n: 2 } } } },
      { updateOne: { filter: { _id: 'u2', status: 'OPEN' }, update: { $set: { n: 3 } } } }, // filtered out
      { updateMany: { filter: { _id: { $in: ['u3', 'u4'] } }, update: { $set: { status: 'DONE' } } } },
      { updateOne: { filter: { _id: 'nope' }, update: { $set: { n: 9 } } } },
    ], { ordered: false });
    expect({ matched: disjoint.matchedCount, modified: disjoint.modifiedCount }).toEqual({ matched: 4, modified: 4 });
    // The same document twice in one command: the second statement sees the first one's change.
    const twice = await rows.bulkWrite([
      { updateOne: { filter: { _id: 'u5' }, update: { $inc: { n: 1 } } } },
      { updateOne: { filter: { _id: 'u5', n: 1 }, update: { $inc: { n: 10 } } } },
    ]);
    expect(twice.modifiedCount).toBe(2);
    expect(await rows.find().sort({ _id: 1 }).toArray()).toEqual([
      { _id: 'u0', status: 'OPEN', n: 1 },
      { _id: 'u1', status: 'OPEN', n: 2 },
      { _id: 'u2', status: 'FILLED', n: 0 },
      { _id: 'u3', status: 'DONE', n: 0 },
      { _id: 'u4', status: 'DONE', n: 0 },
      { _id: 'u5', status: 'OPEN', n: 11 },
    ]);
  });

  it('when many clients write one database at once (inserts, upserts, updates, deletes, duplicate ids), then every write lands once and every refusal comes back', async () => {
    // The build queues a database file's writers on one lock (a statement outside a transaction
    // and a transaction alike); this checks that they all get through, none is lost, and a
    // refused write still answers with its error instead of holding the lock. Each write has a
    // document of its own: concurrent read-modify-writes of ONE document are not atomic on
    // FerretDB (docs/data-model.md), with or without the lock.
    type Row = { _id: string; n: number };
    const lanes = Array.from({ length: 4 }, (_, i) => db().collection<Row>(`writers_${i}`));
    const claims = db().collection<Row>('writers_claims');
    const work: Promise<unknown>[] = [];
    for (let k = 0; k < 25; k += 1) {
      for (const lane of lanes) {
        work.push(lane.insertMany([{ _id: `a${k}`, n: k }, { _id: `b${k}`, n: k }]).then(() => lane.updateOne({ _id: `a${k}` }, { $inc: { n: 100 } })));
        work.push(lane.updateOne({ _id: `up${k}` }, { $set: { n: k } }, { upsert: true }));
      }
    }
    const same = Array.from({ length: 8 }, () => claims.insertOne({ _id: 'once', n: 1 }).then(() => 'inserted', (e: { code?: number }) => e.code));
    await Promise.all(work);
    expect((await Promise.all(same)).sort()).toEqual([11000, 11000, 11000, 11000, 11000, 11000, 11000, 'inserted']);
    await Promise.all(lanes.map((lane) => lane.deleteMany({ _id: { $in: ['a0', 'b0'] } })));
    const expected = Array.from({ length: 25 }, (_, k) => [
      ...(k > 0 ? [{ _id: `a${k}`, n: k + 100 }, { _id: `b${k}`, n: k }] : []),
      { _id: `up${k}`, n: k },
    ]).flat().sort((x, y) => x._id.localeCompare(y._id));
    for (const lane of lanes) expect(await lane.find().sort({ _id: 1 }).toArray()).toEqual(expected);
  });
});
