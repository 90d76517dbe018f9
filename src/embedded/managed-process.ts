import { ChildProcess, spawn } from 'node:child_process';
import { appendFileSync, closeSync, mkdirSync, openSync } from 'node:fs';
import { dirname } from 'node:path';

export interface ManagedProcess {
  name: string;
  child: ChildProcess;
  /** True until the process has exited. */
  alive(): boolean;
  /** Resolves with the exit code (or signal name) once the process ends. */
  exited: Promise<number | string>;
  /** SIGTERM, then SIGKILL after `graceMs`. Resolves when the process is gone. */
  stop(graceMs?: number): Promise<void>;
}

/**
 * Spawns a long-running server whose output goes to a log file (not our terminal: a dev server's
 * chatter would drown the service's own logs). The child gets its own process group so that a
 * Ctrl-C reaching the terminal is handled once, by our supervisor, which stops children in order.
 * It writes to the file itself rather than through a pipe to us: a pipe would kill it (SIGPIPE) at
 * its first log line after our death, or never, so whether it outlived us would be chance; the
 * next start stops what outlived us either way (src/supervisor/started-processes.ts).
 */
export function startManagedProcess(options: {
  name: string;
  command: string;
  args: string[];
  logFile: string;
  env?: NodeJS.ProcessEnv;
  cwd?: string;
  /**
   * Tests: share our process group (a Ctrl-C stops the servers too) and kill the child when this
   * process exits, so an interrupted test run leaves no server behind.
   */
  tiedToParent?: boolean;
  /** Told the pid at once, before the server is up (the supervisor records what it started). */
  onSpawn?: (pid: number) => void;
}): ManagedProcess {
  mkdirSync(dirname(options.logFile), { recursive: true });
  const log = openSync(options.logFile, 'a');
  let child: ChildProcess;
  try {
    child = spawn(options.command, options.args, {
      cwd: options.cwd,
      env: options.env ?? process.env,
      stdio: ['ignore', log, log],
      detached: !options.tiedToParent,
    });
  } finally {
    closeSync(log); // the child has its own copy
  }
  if (child.pid !== undefined) options.onSpawn?.(child.pid);
  const killOnExit = () => child.kill('SIGKILL');
  if (options.tiedToParent) process.once('exit', killOnExit);
  let running = true;
  const exited = new Promise<number | string>((resolve) => {
    child.once('exit', (code, signal) => {
      running = false;
      process.removeListener('exit', killOnExit);
      resolve(code ?? signal ?? 'unknown');
    });
    child.once('error', (error) => {
      running = false;
      appendFileSync(options.logFile, `spawn failed: ${error.message}\n`);
      resolve('spawn-error');
    });
  });

  async function stop(graceMs = 10_000): Promise<void> {
    if (!running) return;
    child.kill('SIGTERM');
    const timer = setTimeout(() => {
      if (running) child.kill('SIGKILL');
    }, graceMs);
    await exited;
    clearTimeout(timer);
  }

  return { name: options.name, child, alive: () => running, exited, stop };
}
