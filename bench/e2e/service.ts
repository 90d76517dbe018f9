/**
 * Starts the built supervisor (dist/src/supervisor/main.js, what `npm start` runs) with a temp
 * DATA_DIR and free loopback ports, as test/foundation/npm-start.test.ts does, and stops it with SIGINT.
 */
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { appendFileSync, existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort } from '../../src/embedded/free-port';
import { executableOf } from './cpu';

export const ROOT = join(__dirname, '..', '..');
const SUPERVISOR = join(ROOT, 'dist', 'src', 'supervisor', 'main.js');

export interface Service {
  api: string;
  chainRpc: string;
  /** The worker's /metrics (its store commands, activities and the Temporal SDK's counters). */
  workerMetrics: string;
  /** The embedded Temporal server's frontend (`host:port`, namespace `default`). */
  temporal: string;
  dataDir: string;
  child: ChildProcess;
  output(): string;
  /** The Node version the API runs on, as its process shows (`SERVICE_NODE`; the worker's is the same); null off Linux. */
  nodeVersion: string | null;
  stop(): Promise<number | null>;
}

/** The version of the Node binary the started API process runs (null where /proc cannot say). */
function serviceNodeVersion(supervisorPid: number | undefined): string | null {
  const binary = supervisorPid === undefined ? null : executableOf(supervisorPid, 'api');
  return binary ? execFileSync(binary, ['--version'], { encoding: 'utf8' }).trim() : null;
}

export async function startService(options: { readyTimeoutMs?: number; logLevel?: string; keepData?: boolean; env?: Record<string, string> } = {}): Promise<Service> {
  if (!existsSync(SUPERVISOR)) throw new Error(`${SUPERVISOR} is missing: run npm run build first`);
  const host = '127.0.0.1';
  const ports = { api: await freePort(host), temporal: await freePort(host), ui: await freePort(host), mongo: await freePort(host), chain: await freePort(host), workerMetrics: await freePort(host) };
  const dataDir = mkdtempSync(join(tmpdir(), 'predex-e2e-bench-'));
  const env: NodeJS.ProcessEnv = {
    PATH: process.env.PATH,
    HOME: process.env.HOME,
    TOOLS_DIR: process.env.TOOLS_DIR,
    DATA_DIR: dataDir,
    HOST: host,
    PORT: String(ports.api),
    TEMPORAL_PORT: String(ports.temporal),
    TEMPORAL_UI_PORT: String(ports.ui),
    MONGODB_PORT: String(ports.mongo),
    CHAIN_PORT: String(ports.chain),
    // A free port rather than the default: two stacks on one machine would share 9464.
    WORKER_METRICS_PORT: String(ports.workerMetrics),
    LOG_LEVEL: options.logLevel ?? 'warn',
    // Every simulated trader comes from this one loopback address: the per-address limit (meant for
    // many clients behind one address) would answer 429 to the bench itself once an open-loop phase
    // catches up on late sends. The per-wallet limit stays on.
    RATE_LIMIT_PER_IP: '0',
    // E2E_STAGE_TIMINGS_S: the service logs its stage timings every this many seconds (STAGE_TIMINGS_S).
    ...(process.env.E2E_STAGE_TIMINGS_S ? { STAGE_TIMINGS_S: process.env.E2E_STAGE_TIMINGS_S } : {}),
    // E2E_SLOW_MS: the service logs database commands slower than this (MONGODB_SLOW_MS).
    ...(process.env.E2E_SLOW_MS ? { MONGODB_SLOW_MS: process.env.E2E_SLOW_MS } : {}),
    // E2E_NODE_OPTIONS: NODE_OPTIONS for the service's Node processes (e.g. `--require ./profile.js`;
    // Node refuses `--cpu-prof` there).
    ...(process.env.E2E_NODE_OPTIONS ? { NODE_OPTIONS: process.env.E2E_NODE_OPTIONS } : {}),
    // E2E_SERVICE_ENV: further settings of the service, `NAME=value` separated by spaces (a
    // measured setting, e.g. `SETTLEMENT_ACTIVITY_SLOTS=1`).
    ...serviceSettings(process.env.E2E_SERVICE_ENV),
    ...options.env,
  };
  const child = spawn(process.execPath, [SUPERVISOR], { env, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  // E2E_SERVICE_LOG: a file that receives the service's whole output.
  const logFile = process.env.E2E_SERVICE_LOG;
  const keep = (chunk: Buffer) => {
    if (logFile) appendFileSync(logFile, chunk);
    output += chunk.toString();
    if (output.length > 2_000_000) output = output.slice(-1_000_000); // bounded memory on a chatty run
  };
  child.stdout!.on('data', keep);
  child.stderr!.on('data', keep);
  const stop = (): Promise<number | null> =>
    new Promise((resolve) => {
      if (child.exitCode !== null || child.signalCode !== null) return resolve(child.exitCode);
      const hard = setTimeout(() => child.kill('SIGKILL'), 60_000);
      child.once('exit', (code) => {
        clearTimeout(hard);
        if (!(options.keepData ?? !!process.env.E2E_KEEP_DATA)) rmSync(dataDir, { recursive: true, force: true });
        else process.stderr.write(`[e2e] the service's data and logs are kept in ${dataDir}\n`);
        resolve(code);
      });
      child.kill('SIGINT');
    });
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => {
      clearInterval(check);
      reject(new Error(`service not ready in time:\n${output.slice(-3000)}`));
    }, options.readyTimeoutMs ?? 180_000);
    const check = setInterval(() => {
      if (output.includes('[predex] ready')) {
        clearInterval(check);
        clearTimeout(timer);
        resolve();
      }
    }, 200);
    child.once('exit', (code) => {
      clearInterval(check);
      clearTimeout(timer);
      reject(new Error(`service exited with ${code} before ready:\n${output.slice(-3000)}`));
    });
  }).catch(async (error: unknown) => {
    await stop();
    throw error;
  });
  return {
    api: `http://${host}:${ports.api}`, chainRpc: `http://${host}:${ports.chain}`, workerMetrics: `http://${host}:${ports.workerMetrics}/metrics`,
    temporal: `${host}:${ports.temporal}`, dataDir, child, output: () => output, nodeVersion: serviceNodeVersion(child.pid), stop,
  };
}

/** `NAME=value NAME=value` as an environment (E2E_SERVICE_ENV). */
export function serviceSettings(text: string | undefined): Record<string, string> {
  const settings: Record<string, string> = {};
  for (const pair of (text ?? '').split(/\s+/).filter(Boolean)) {
    const at = pair.indexOf('=');
    if (at <= 0) throw new Error(`E2E_SERVICE_ENV: expected NAME=value, got ${pair}`);
    settings[pair.slice(0, at)] = pair.slice(at + 1);
  }
  return settings;
}
