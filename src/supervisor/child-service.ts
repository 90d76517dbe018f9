import { ChildProcess, spawn } from 'node:child_process';

const MAX_RESTARTS_PER_MINUTE = 5;

/**
 * Wait before restarting a child that exited on its own, by how many times it did so in the last
 * minute (this one included): 250 ms, then 500 ms, 1 s, 2 s, 4 s. The first is short because a
 * restarted worker's markets match nothing until it is back (6-10 s of replay in the e2e bench); the
 * doubling keeps a crash loop from spinning until the bound stops the tree.
 */
export function restartDelayMs(recentRestarts: number): number {
  return 250 * 2 ** Math.max(0, recentRestarts - 1);
}

export interface ChildServiceOptions {
  name: string;
  script: string;
  env: NodeJS.ProcessEnv;
  /** The tree must stop: this child cannot run (it keeps crashing, or cannot start at all). */
  onGiveUp: (reason: string) => void;
  log: (line: string) => void;
  /** Node options before the script, e.g. a `--require` preload. */
  nodeArgs?: string[];
  /** The Node binary it runs on (`SERVICE_NODE`); the supervisor's own by default. */
  nodeBinary?: string;
  /** Each start, with the new process's pid (the supervisor records what it started). */
  onSpawn?: (pid: number) => void;
}

/**
 * A Node process of ours (API or worker) under supervision: its output goes to our terminal, and
 * an unexpected exit restarts it after a short back-off. It runs in its own process group so a
 * terminal Ctrl-C reaches only the supervisor, which then stops children in order. Restarts are
 * bounded: a process that keeps crashing stops the whole tree instead of looping forever. It gets
 * an IPC channel, whose close tells it that the supervisor is gone (exit-with-supervisor.ts).
 */
export class ChildService {
  private child?: ChildProcess;
  private stopping = false;
  private restarts: number[] = [];
  readonly name: string;

  constructor(private readonly options: ChildServiceOptions) {
    this.name = options.name;
  }

  start(): void {
    const { nodeBinary = process.execPath, nodeArgs = [], script, env, log, onGiveUp } = this.options;
    const child = spawn(nodeBinary, [...nodeArgs, script], { env, stdio: ['ignore', 'inherit', 'inherit', 'ipc'], detached: true });
    this.child = child;
    if (child.pid !== undefined) this.options.onSpawn?.(child.pid);
    // A binary that cannot be started (missing, not executable) emits 'error' and never 'exit';
    // starting it again would fail the same way, so the tree stops and says which binary.
    child.on('error', (error: NodeJS.ErrnoException) => {
      if (child.pid !== undefined) {
        log(`${this.name}: ${error.message}`);
        return;
      }
      if (!this.stopping) onGiveUp(`${this.name} could not start: ${nodeBinary} (${error.code ?? error.message})`);
    });
    child.once('exit', (code, signal) => {
      if (this.stopping) return;
      const now = Date.now();
      this.restarts = this.restarts.filter((t) => now - t < 60_000).concat(now);
      if (code === 2 || this.restarts.length > MAX_RESTARTS_PER_MINUTE) {
        onGiveUp(`${this.name} exited (${code ?? signal}) ${code === 2 ? 'on a configuration error' : 'too often'}`);
        return;
      }
      log(`${this.name} exited (${code ?? signal}); restarting`);
      setTimeout(() => {
        if (!this.stopping) this.start();
      }, restartDelayMs(this.restarts.length));
    });
  }

  /** SIGTERM and wait; SIGKILL if it has not left after `graceMs`. */
  async stop(graceMs = 15_000): Promise<void> {
    this.stopping = true;
    const child = this.child;
    if (!child || child.exitCode !== null || child.signalCode !== null) return;
    const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
    child.kill('SIGTERM');
    const timer = setTimeout(() => child.kill('SIGKILL'), graceMs);
    await exited;
    clearTimeout(timer);
  }
}
