/**
 * Runs the built `npm start` entry point (dist/src/supervisor/main.js) the way a user does, on
 * loopback ports and a data folder of the test's choosing, and looks at the process tree it makes.
 */
import { ChildProcess, spawn } from 'node:child_process';
import { appendFileSync, mkdirSync, readdirSync, readFileSync, readlinkSync } from 'node:fs';
import { join } from 'node:path';
import { freePort } from '../../src/embedded/free-port';
import { SERVICE_OUTPUT_FILE } from './service-diagnostics';

export const SUPERVISOR = join(__dirname, '..', '..', 'dist', 'src', 'supervisor', 'main.js');

export interface ServicePorts {
  api: number;
  temporal: number;
  ui: number;
  mongo: number;
  chain: number;
}

export interface Started {
  child: ChildProcess;
  output: () => string;
  /** Resolves with the exit code once the supervisor has exited. */
  exited: Promise<number | null>;
}

const running = new Set<ChildProcess>();
/** For afterAll: a failed assertion must not leave a service tree behind (SIGINT stops it in order). */
export function stopAllStarted(): void {
  for (const child of running) if (child.exitCode === null && child.signalCode === null) child.kill('SIGINT');
}

/** Five distinct free ports: the OS may hand the same free port to two asks in a row. */
export async function servicePorts(): Promise<ServicePorts> {
  const ports = new Set<number>();
  while (ports.size < 5) ports.add(await freePort());
  const [api, temporal, ui, mongo, chain] = [...ports];
  return { api, temporal, ui, mongo, chain };
}

export function serviceEnv(ports: ServicePorts, dataDir: string, extra: NodeJS.ProcessEnv = {}): NodeJS.ProcessEnv {
  return {
    PATH: process.env.PATH,
    HOME: process.env.HOME,
    TOOLS_DIR: process.env.TOOLS_DIR,
    DATA_DIR: dataDir,
    HOST: '127.0.0.1',
    PORT: String(ports.api),
    TEMPORAL_PORT: String(ports.temporal),
    TEMPORAL_UI_PORT: String(ports.ui),
    MONGODB_PORT: String(ports.mongo),
    CHAIN_PORT: String(ports.chain),
    LOG_LEVEL: 'warn',
    ...extra,
  };
}

/**
 * Starts the supervisor; `ready` resolves once it prints that it is ready, and rejects if it exits
 * first. Every start's output is also appended to DATA_DIR/logs/npm-start.log, which outlives the
 * test for a look at a failed run (service-diagnostics.ts).
 */
export function launch(env: NodeJS.ProcessEnv): Started & { ready: Promise<void> } {
  const child = spawn(process.execPath, [SUPERVISOR], { env, stdio: ['ignore', 'pipe', 'pipe'] });
  running.add(child);
  let output = '';
  const logDir = join(env.DATA_DIR!, 'logs');
  mkdirSync(logDir, { recursive: true });
  appendFileSync(join(logDir, SERVICE_OUTPUT_FILE), `--- npm start (pid ${child.pid}) at ${new Date().toISOString()}\n`);
  const keep = (chunk: Buffer) => {
    output += chunk.toString();
    appendFileSync(join(logDir, SERVICE_OUTPUT_FILE), chunk);
  };
  child.stdout!.on('data', keep);
  child.stderr!.on('data', keep);
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  const ready = new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`not ready in time:\n${output.slice(-3000)}`)), 120_000);
    const check = setInterval(() => {
      if (output.includes('[predex] ready')) {
        clearInterval(check);
        clearTimeout(timer);
        resolve();
      }
    }, 200);
    void exited.then((code) => {
      clearInterval(check);
      clearTimeout(timer);
      reject(new Error(`exited with ${code} before ready:\n${output.slice(-3000)}`));
    });
  });
  return { child, output: () => output, exited, ready };
}

/** Runs the supervisor and resolves once it is ready. */
export async function startService(env: NodeJS.ProcessEnv): Promise<Started> {
  const started = launch(env);
  await started.ready;
  return started;
}

/** Ctrl-C: resolves with the supervisor's exit code. */
export function stopService(started: Started): Promise<number | null> {
  started.child.kill('SIGINT');
  return started.exited;
}

export interface TreeProcess {
  pid: number;
  cmdline: string;
  exe: string;
}

/** The processes whose parent is `pid` (the supervisor's servers and Node children), from /proc. */
export function childrenOf(pid: number): TreeProcess[] {
  const out: TreeProcess[] = [];
  for (const entry of readdirSync('/proc').filter((e) => /^\d+$/.test(e))) {
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      if (Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]) !== pid) continue;
      const cmdline = readFileSync(`/proc/${entry}/cmdline`, 'utf8').split('\0').join(' ');
      out.push({ pid: Number(entry), cmdline, exe: readlinkSafe(`/proc/${entry}/exe`) });
    } catch {
      // ended meanwhile
    }
  }
  return out;
}

function readlinkSafe(path: string): string {
  try {
    return readlinkSync(path);
  } catch {
    return '';
  }
}
