/**
 * Reproduction of the FerretDB stall seen under the e2e benchmark (not part of `npm run bench:e2e`):
 * FerretDB 1.24 on SQLite, CONCURRENCY concurrent updateMany (an update runs a query, then opens
 * a transaction: two pooled SQLite connections) plus finds. Reports whether every operation comes
 * back within 30 s, then whether a fresh find still answers.
 *
 *   npx tsx bench/e2e/ferretdb-stall-repro.ts [concurrency=200]
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { MongoClient } from 'mongodb';
import { startFerretDb } from '../../src/embedded/ferretdb-server';
import { freePort } from '../../src/embedded/free-port';

const within = <T>(p: Promise<T>, ms: number): Promise<T | 'TIMEOUT'> => Promise.race([p, new Promise<'TIMEOUT'>((r) => setTimeout(() => r('TIMEOUT'), ms))]);

async function main(): Promise<void> {
  const concurrency = Number(process.argv[2] ?? 200);
  const dir = mkdtempSync(join(tmpdir(), 'ferret-repro-'));
  const server = await startFerretDb({ host: '127.0.0.1', port: await freePort(), dataDir: join(dir, 'db'), logDir: dir });
  const client = new MongoClient(server.uri, { maxPoolSize: concurrency + 10 });
  try {
    await client.connect();
    const docs = client.db('repro').collection<{ _id: string; n: number; w: number }>('docs');
    await docs.insertMany(Array.from({ length: 300 }, (_, i) => ({ _id: `d${i}`, n: i, w: i % 10 })));
    for (const n of [20, 60, concurrency]) {
      const started = Date.now();
      let done = 0;
      const ops = Array.from({ length: n }, (_, i) =>
        (i % 2 === 0 ? docs.updateMany({ w: i % 10 }, { $inc: { n: 1 } }) : docs.find({ w: i % 10 }).toArray()).then(() => (done += 1)),
      );
      const outcome = await within(Promise.all(ops).then(() => 'ok'), 30_000);
      console.log(`${n} concurrent updateMany+find: ${outcome} (${done}/${n} answered in ${Date.now() - started} ms)`);
      if (outcome !== 'ok') {
        const fresh = new MongoClient(server.uri, { serverSelectionTimeoutMS: 5_000 });
        const probe = await within(fresh.connect().then(() => fresh.db('repro').collection('docs').findOne({ _id: 'd1' as never })), 15_000);
        console.log(`a fresh client's findOne afterwards: ${probe === 'TIMEOUT' ? 'no answer in 15 s (stalled)' : 'answered'}`);
        await fresh.close(true).catch(() => undefined);
        break;
      }
    }
  } finally {
    await client.close(true).catch(() => undefined);
    await server.process.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}

main().then(() => process.exit(0), (error: unknown) => {
  console.error(error);
  process.exit(1);
});
