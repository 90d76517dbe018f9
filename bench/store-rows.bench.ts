/**
 * What a row costs the embedded FerretDB (SQLite backend): FerretDB's own CPU time (/proc) per
 * statement, for the kinds of statement an order causes, each sent in bulk commands as the
 * service sends them. The store's share of an order is roughly its rows (`bench:e2e`,
 * `store_statements_per_order`) times these.
 *
 *   npm run bench:store-rows      STORE_ROWS_N (2,000 statements a kind), STORE_ROWS_ROUNDS (3)
 *
 * Prints the median over rounds per kind and writes bench/results/store-rows.json.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { MongoClient, type Collection } from 'mongodb';
import { startFerretDb } from '../src/embedded/ferretdb-server';
import { freePort } from '../src/embedded/free-port';
import { runBench, writeBenchResult } from './bench-output';
import { median } from './e2e/stats';
import { positiveEnv } from './positive-env';

const N = positiveEnv('STORE_ROWS_N', 2_000);
const ROUNDS = positiveEnv('STORE_ROWS_ROUNDS', 3);
const RESULT_FILE = path.join(__dirname, 'results', 'store-rows.json');
/** Statements per command: the service's bulk chunk (src/db/bulk-writes.ts), 20 for a step's levels. */
const CHUNK = 50;
const LEVELS = 20;
/** An order document is ~1-1.5 KB of JSON. */
const PAD = 'x'.repeat(900);
/** Level rows of other markets present, as on a store that has traded for a while. */
const OTHER_LEVELS = 2_000;

type Row = { _id: string } & Record<string, unknown>;

function cpuMs(pid: number): number {
  const fields = fs.readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
  return ((Number(fields[11]) + Number(fields[12])) * 1000) / 100; // utime + stime, in clock ticks of 1/100 s
}

const chunks = (n: number, size: number) => Array.from({ length: Math.ceil(n / size) }, (_, i) => Array.from({ length: Math.min(size, n - i * size) }, (_, k) => i * size + k));

/** Each kind writes N statements; its reading is FerretDB's CPU-ms over them divided by N. */
function kinds(orders: Collection<Row>, levels: Collection<Row>): [string, () => Promise<void>][] {
  let seq = 1;
  const level = (i: number) => ({ side: 'BID', ticks: 1 + (i % 99) });
  return [
    ['insert an order document (50 a command)', async () => {
      for (const ids of chunks(N, CHUNK)) await orders.insertMany(ids.map((i) => ({ _id: `h${i}`, market_key: '56-0xabc', status: 'OPEN', pad: PAD, n: i })));
    }],
    ['update an order by _id, guarded (50 a command)', async () => {
      for (const ids of chunks(N, CHUNK)) {
        await orders.bulkWrite(ids.map((i) => ({ updateOne: { filter: { _id: `h${i}`, n: { $lt: N } }, update: { $set: { status: 'MATCHED', n: N } } } })), { ordered: false });
      }
    }],
    ['delete by _id $in (50 ids a command)', async () => {
      for (const ids of chunks(N, CHUNK)) await orders.deleteMany({ _id: { $in: ids.map((i) => `h${i}`) } });
    }],
    ['upsert a book level by _id (20 a command)', async () => {
      for (const ids of chunks(N, LEVELS)) {
        await levels.bulkWrite(ids.map((i) => ({ updateOne: { filter: { _id: `56:0xc0:BID:${level(i).ticks}`, seq: { $lt: seq } }, update: { $set: { remaining: String(i), seq: seq++ }, $setOnInsert: { chain_id: 56, condition_id: '0xc0', ...level(i) } }, upsert: true } })), { ordered: false });
      }
    }],
    [`upsert a book level by its fields, ${OTHER_LEVELS} other rows (20 a command)`, async () => {
      for (const ids of chunks(N, LEVELS)) {
        await levels.bulkWrite(ids.map((i) => ({ updateOne: { filter: { chain_id: 56, condition_id: '0xc0', ...level(i), seq: { $lt: seq } }, update: { $set: { remaining: String(i), seq: seq++ } }, upsert: true } })), { ordered: false });
      }
    }],
  ];
}

async function round(): Promise<Record<string, number>> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'store-rows-'));
  let pid = 0;
  const server = await startFerretDb({ host: '127.0.0.1', port: await freePort(), dataDir: path.join(dir, 'db'), logDir: dir, onSpawn: (p) => { pid = p; } });
  const client = new MongoClient(server.uri);
  try {
    await client.connect();
    const db = client.db('bench');
    const levels = db.collection<Row>('book_levels');
    await levels.createIndex({ chain_id: 1, condition_id: 1, side: 1, ticks: 1 }, { unique: true });
    await levels.insertMany(Array.from({ length: OTHER_LEVELS }, (_, i) => ({ _id: `56:0xd${i}:ASK:1`, chain_id: 56, condition_id: `0xd${i}`, side: 'ASK', ticks: 1, remaining: '1', seq: 0 })));
    const out: Record<string, number> = {};
    for (const [name, run] of kinds(db.collection<Row>('orders'), levels)) {
      const before = cpuMs(pid);
      await run();
      out[name] = (cpuMs(pid) - before) / N;
    }
    return out;
  } finally {
    await client.close(true).catch(() => undefined);
    await server.process.stop();
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

async function main(): Promise<void> {
  const load = os.loadavg()[0];
  const readings: Record<string, number>[] = [];
  for (let r = 0; r < ROUNDS; r += 1) readings.push(await round());
  const results = Object.keys(readings[0]).map((kind) => ({ kind, ferretdb_cpu_ms_per_statement: Math.round((median(readings.map((x) => x[kind])) ?? 0) * 1000) / 1000 }));
  console.log(`\n${'statement'.padEnd(70)} FerretDB CPU-ms   (medians of ${ROUNDS} rounds, ${N} each; load ${load.toFixed(1)})`);
  for (const r of results) console.log(`${r.kind.padEnd(70)} ${String(r.ferretdb_cpu_ms_per_statement).padStart(15)}`);
  writeBenchResult(RESULT_FILE, { benchmark: 'store-rows', started_at: new Date().toISOString(), statements_per_kind: N, rounds: ROUNDS, load_average_before: load, cpus: os.cpus().length, results });
  console.log(`\nwrote ${path.relative(process.cwd(), RESULT_FILE)}`);
}

runBench(main, (line) => console.error(line));
