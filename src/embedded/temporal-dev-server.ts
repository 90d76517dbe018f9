import { join } from 'node:path';
import { ensureGoTool } from '../tools/ensure-go-tool';
import { TEMPORAL_CLI } from '../tools/tool-versions';
import { SEARCH_ATTRIBUTES, SEARCH_ATTRIBUTES_TOTAL_BYTES, SEARCH_ATTRIBUTE_VALUE_BYTES } from '../temporal/search-attributes';
import { startManagedProcess, ManagedProcess } from './managed-process';
import { waitForPort } from './free-port';
import { embeddedGoMaxProcs } from './go-maxprocs';
import type { SqliteSync } from './sqlite-sync';

/**
 * The same durability as the embedded FerretDB (src/embedded/ferretdb-server.ts): WAL with
 * synchronous=NORMAL by default, so a commit survives any process crash and is fsynced at
 * checkpoints (`full`: at every commit). The CLI's default (a rollback journal, synchronous=FULL)
 * fsyncs the journal and the database on every commit: every signal, workflow task and activity
 * result. docs/foundation.md.
 */
function sqliteDurability(sync: SqliteSync): string[] {
  return ['journal_mode=wal', `synchronous=${sync}`];
}

/**
 * Signals the server keeps for a workflow while one of its tasks is under way
 * (`history.maximumBufferedEventsBatch`, 100 by default). Past it the server fails the task under
 * way and its work is lost. A worker taking a busy market over replays the run's whole history in
 * one task (seconds), while the API keeps handing orders over: at 100 that first task was failed
 * and the market matched nothing for ~15 s (docs/benchmarks.md, "Numbers behind the design"). The size bound
 * (`history.maximumBufferedEventsSizeInBytes`, 2 MiB) still holds; a hand-off carries at most 500
 * hashes (~35 KB). A real cluster needs the same setting (docs/foundation.md).
 */
export const SIGNALS_BUFFERED_PER_TASK = 2_000;

/**
 * The server settings the service relies on. The compose server reads the same values from
 * deploy/temporal/dynamicconfig.yaml (a test keeps the two in step).
 */
export const TEMPORAL_DYNAMIC_CONFIG: Readonly<Record<string, number>> = {
  // Many signals per market workflow: let the server keep up with a busy book.
  'frontend.rps': 10_000,
  'frontend.namespaceRPS': 10_000,
  'history.maximumBufferedEventsBatch': SIGNALS_BUFFERED_PER_TASK,
  // A settlement batch lists every order and wallet it settles (src/temporal/search-attributes.ts).
  'frontend.searchAttributesSizeOfValueLimit': SEARCH_ATTRIBUTE_VALUE_BYTES,
  'frontend.searchAttributesTotalSizeLimit': SEARCH_ATTRIBUTES_TOTAL_BYTES,
};

export interface TemporalDevServer {
  address: string;
  uiUrl?: string;
  process: ManagedProcess;
}

/**
 * The official Temporal CLI dev server. With `dbFile` its state survives restarts (workflows,
 * histories, timers); without it, it lives in memory (tests).
 */
export async function startTemporalDevServer(options: {
  host: string;
  port: number;
  uiPort?: number;
  dbFile?: string;
  namespace: string;
  logDir: string;
  log?: (line: string) => void;
  tiedToParent?: boolean;
  /** SQLite's synchronous setting of `dbFile` (default `normal`). */
  sqliteSync?: SqliteSync;
  /** Told the server's pid as soon as it is spawned. */
  onSpawn?: (pid: number) => void;
  /** The server's GOMAXPROCS (default `embeddedGoMaxProcs()`: half the cores, at least 1). */
  gomaxprocs?: number;
}): Promise<TemporalDevServer> {
  const binary = await ensureGoTool(TEMPORAL_CLI, options.log);
  const args = ['server', 'start-dev', '--ip', options.host, '--port', String(options.port), '--log-level', 'warn'];
  if (options.uiPort) args.push('--ui-port', String(options.uiPort));
  else args.push('--headless');
  if (options.dbFile) args.push('--db-filename', options.dbFile, ...sqliteDurability(options.sqliteSync ?? 'normal').flatMap((p) => ['--sqlite-pragma', p]));
  if (options.namespace !== 'default') args.push('--namespace', options.namespace);
  for (const [name, type] of Object.entries(SEARCH_ATTRIBUTES)) args.push('--search-attribute', `${name}=${type}`);
  for (const [key, value] of Object.entries(TEMPORAL_DYNAMIC_CONFIG)) args.push('--dynamic-config-value', `${key}=${JSON.stringify(value)}`);

  const env = { ...globalThis.process.env, GOMAXPROCS: String(embeddedGoMaxProcs(options.gomaxprocs)) };
  const process = startManagedProcess({ name: 'temporal', command: binary, args, env, logFile: join(options.logDir, 'temporal.log'), tiedToParent: options.tiedToParent, onSpawn: options.onSpawn });
  try {
    await waitForPort(options.host, options.port, 60_000, process.alive);
    if (options.uiPort) await waitForPort(options.host, options.uiPort, 60_000, process.alive);
  } catch (error) {
    await process.stop();
    throw new Error(`Temporal dev server did not start (see ${join(options.logDir, 'temporal.log')}): ${(error as Error).message}`);
  }
  return {
    address: `${options.host}:${options.port}`,
    uiUrl: options.uiPort ? `http://${options.host}:${options.uiPort}` : undefined,
    process,
  };
}
