/**
 * Concurrent writers against the embedded FerretDB (SQLite backend): W loops, each writing its own
 * collection of one database, as the API's and the worker's writes do (all of them share one
 * SQLite file and so its one write lock). Each loop alternates a 2-document insertMany with an
 * upsert by _id, and times every command.
 *
 *   npm run bench:store                     the pinned build (src/tools/tool-versions.ts)
 *   STORE_BENCH_BINARIES=a,b npm run bench:store   builds side by side (e.g. before and after a patch)
 *
 * Builds run in turn, round after round (STORE_BENCH_ROUNDS, 3), so a noisy moment of the machine
 * does not land on one build only; per writer count and build it prints the median over rounds of
 * ops/s, p50, p99 and max, and writes bench/results/store-writers.json.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { MongoClient } from 'mongodb';
import { startFerretDb } from '../src/embedded/ferretdb-server';
import { freePort } from '../src/embedded/free-port';
import { ensureGoTool } from '../src/tools/ensure-go-tool';
import { FERRETDB } from '../src/tools/tool-versions';
import { median, percentile, round1 } from './e2e/stats';

const WRITERS = [1, 2, 4, 8];
const SECONDS = Number(process.env.STORE_BENCH_SECONDS ?? 4);
const ROUNDS = Number(process.env.STORE_BENCH_ROUNDS ?? 3);
const RESULT_FILE = path.join(__dirname, 'results', 'store-writers.json');

interface Reading { ops_per_s: number; p50_ms: number | null; p99_ms: number | null; max_ms: number | null }

/** W writer loops for SECONDS against one server; every command timed. */
async function measure(client: MongoClient, writers: number): Promise<Reading> {
  const db = client.db('bench');
  const latencies: number[] = [];
  const until = performance.now() + SECONDS * 1000;
  await Promise.all(Array.from({ length: writers }, async (_, w) => {
    const rows = db.collection<{ _id: string; n: number; pad?: string }>(`writer${w}`);
    for (let n = 0; performance.now() < until; n += 1) {
      const started = performance.now();
      if (n % 2 === 0) {
        const id = `${w}-${n}-${started}`;
        await rows.insertMany([{ _id: id, n, pad: 'x'.repeat(300) }, { _id: `${id}b`, n, pad: 'y'.repeat(300) }]);
      } else {
        await rows.updateOne({ _id: 'counter' }, { $set: { n } }, { upsert: true });
      }
      latencies.push(performance.now() - started);
    }
  }));
  return { ops_per_s: latencies.length / SECONDS, p50_ms: percentile(latencies, 50), p99_ms: percentile(latencies, 99), max_ms: percentile(latencies, 100) };
}

async function measureBuild(binary: string): Promise<Record<number, Reading>> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'store-bench-'));
  const server = await startFerretDb({ host: '127.0.0.1', port: await freePort(), dataDir: path.join(dir, 'db'), logDir: dir, binary });
  const client = new MongoClient(server.uri, { maxPoolSize: 50 });
  try {
    await client.connect();
    const readings: Record<number, Reading> = {};
    for (const writers of WRITERS) readings[writers] = await measure(client, writers);
    return readings;
  } finally {
    await client.close(true).catch(() => undefined);
    await server.process.stop();
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

/** A cached build's folder (`ferretdb-v1.24.2-patched8`), else the path as given. */
const buildName = (binary: string) => (path.basename(binary) === 'ferretdb' ? path.basename(path.dirname(binary)) : binary);

async function main(): Promise<void> {
  const binaries = process.env.STORE_BENCH_BINARIES?.split(',').filter(Boolean) ?? [await ensureGoTool(FERRETDB)];
  const rounds: Record<string, Record<number, Reading>[]> = Object.fromEntries(binaries.map((b) => [b, []]));
  for (let round = 0; round < ROUNDS; round += 1) {
    for (const binary of binaries) rounds[binary].push(await measureBuild(binary));
  }
  const results = binaries.map((binary) => ({
    build: buildName(binary),
    writers: WRITERS.map((writers) => {
      const of = (key: keyof Reading) => round1(median(rounds[binary].flatMap((r) => r[writers][key] ?? [])));
      return { writers, ops_per_s: of('ops_per_s'), p50_ms: of('p50_ms'), p99_ms: of('p99_ms'), max_ms: of('max_ms') };
    }),
  }));
  console.log(`\n${'build'.padEnd(40)} writers   ops/s   p50 ms   p99 ms   max ms   (medians of ${ROUNDS} rounds, ${SECONDS} s each)`);
  for (const { build, writers } of results) {
    const name = build.slice(0, 40);
    for (const r of writers) {
      console.log(`${name.padEnd(40)} ${String(r.writers).padStart(7)} ${String(r.ops_per_s).padStart(7)} ${String(r.p50_ms).padStart(8)} ${String(r.p99_ms).padStart(8)} ${String(r.max_ms).padStart(8)}`);
    }
  }
  fs.mkdirSync(path.dirname(RESULT_FILE), { recursive: true });
  fs.writeFileSync(RESULT_FILE, `${JSON.stringify({ benchmark: 'store-writers', started_at: new Date().toISOString(), seconds_per_reading: SECONDS, rounds: ROUNDS, cpus: os.cpus().length, results }, null, 2)}\n`);
  console.log(`\nwrote ${path.relative(process.cwd(), RESULT_FILE)}`);
}

main().then(() => process.exit(0), (error: unknown) => {
  console.error(error);
  process.exit(1);
});
