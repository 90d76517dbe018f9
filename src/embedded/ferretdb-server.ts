import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { ENV_SPEC } from '../config/env-spec';
import { embeddedGoMaxProcs } from './go-maxprocs';
import type { SqliteSync } from './sqlite-sync';
import { ensureGoTool } from '../tools/ensure-go-tool';
import { FERRETDB } from '../tools/tool-versions';
import { freePort, waitForPort } from './free-port';
import { startManagedProcess, ManagedProcess } from './managed-process';

/**
 * WAL (FerretDB's default) with synchronous=NORMAL by default (`EMBEDDED_SQLITE_SYNC`): a commit is
 * durable once written to the WAL file, which survives a crash of any process; the WAL is fsynced
 * at checkpoints rather than at every commit (a power loss can drop the last commits). That is the
 * durability of MongoDB's own default (w:1 writes are journaled every 100 ms), and it takes the
 * per-commit fsync off every write. `full` fsyncs the WAL at every commit. docs/foundation.md.
 */
function sqliteDurability(sync: SqliteSync): string {
  return `_pragma=synchronous(${sync})`;
}

/**
 * Go's garbage-collection target for FerretDB (GOGC; Go's default is 100; the service's default is
 * `FERRETDB_GOGC`'s). FerretDB allocates a document tree per document it reads or writes, and at
 * 100 its collector ran ~8% of its CPU with allocation assists on top. At 400 it spent ~20% less
 * CPU under the e2e bench for ~15 MB more resident memory (75 -> 90 MB at peak):
 * docs/foundation.md, docs/benchmarks.md, "Numbers behind the design".
 */
export const DEFAULT_FERRETDB_GOGC = ENV_SPEC.FERRETDB_GOGC.default;

export interface FerretDbServer {
  uri: string;
  process: ManagedProcess;
}

/**
 * FerretDB on its SQLite backend: a MongoDB wire-compatible server in one pure-Go binary, keeping
 * its data as SQLite files under `dataDir`. It has no transactions or change streams, so the
 * service's writes are idempotent upserts (see docs/persistence.md).
 */
export async function startFerretDb(options: {
  host: string;
  port: number;
  dataDir: string;
  logDir: string;
  log?: (line: string) => void;
  tiedToParent?: boolean;
  /** FerretDB's GOGC (default DEFAULT_FERRETDB_GOGC). */
  gogc?: number;
  /** FerretDB's GOMAXPROCS (default `embeddedGoMaxProcs()`: half the cores, at least 1). */
  gomaxprocs?: number;
  /** SQLite's synchronous setting (default `normal`). */
  sqliteSync?: SqliteSync;
  /** Told the server's pid as soon as it is spawned. */
  onSpawn?: (pid: number) => void;
  /** Another FerretDB binary than the pinned build (a benchmark comparing builds side by side). */
  binary?: string;
}): Promise<FerretDbServer> {
  const binary = options.binary ?? await ensureGoTool(FERRETDB, options.log);
  mkdirSync(options.dataDir, { recursive: true });
  // The debug (metrics) listener defaults to a fixed port; a free one lets instances run side by side.
  const debugPort = await freePort(options.host);
  const args = [
    '--handler=sqlite',
    `--sqlite-url=file:${options.dataDir}/?${sqliteDurability(options.sqliteSync ?? 'normal')}`,
    `--state-dir=${options.dataDir}`,
    `--listen-addr=${options.host}:${options.port}`,
    `--debug-addr=${options.host}:${debugPort}`,
    '--telemetry=disable',
    '--log-level=warn',
  ];
  const env = { ...globalThis.process.env, GOGC: String(options.gogc ?? DEFAULT_FERRETDB_GOGC), GOMAXPROCS: String(embeddedGoMaxProcs(options.gomaxprocs)) };
  const process = startManagedProcess({ name: 'ferretdb', command: binary, args, env, logFile: join(options.logDir, 'ferretdb.log'), tiedToParent: options.tiedToParent, onSpawn: options.onSpawn });
  try {
    await waitForPort(options.host, options.port, 30_000, process.alive);
  } catch (error) {
    await process.stop();
    throw new Error(`FerretDB did not start (see ${join(options.logDir, 'ferretdb.log')}): ${(error as Error).message}`);
  }
  return { uri: `mongodb://${options.host}:${options.port}/`, process };
}
