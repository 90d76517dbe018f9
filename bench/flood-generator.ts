/**
 * The parent's side of the flood load generator (bench/flood-client.ts): a child process standing
 * in for another machine, driven over IPC. Used by `npm run bench:flood` and the gateway's flood
 * tests.
 */
import { fork, type ChildProcess } from 'node:child_process';
import { setPriority } from 'node:os';
import { join } from 'node:path';

export type FloodCounts = Record<string, number>;

export class FloodGenerator {
  private readonly child: ChildProcess;

  constructor(nice: number) {
    this.child = fork(join(__dirname, 'flood-client.ts'), [], { cwd: join(__dirname, '..'), execArgv: ['--import', 'tsx'], stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
    // The clients stand in for other machines: on this one the bare handshakes (cheap to send,
    // thousands a second) must not take the cores from the server they flood. The socket.io
    // clients of the re-subscribe flood need theirs to hold their sockets at all.
    if (this.child.pid !== undefined && nice > 0) setPriority(this.child.pid, nice);
  }

  /** Resolves once the process runs (its start-up is seconds on a busy machine). */
  ready(): Promise<void> {
    return new Promise((resolve) => this.child.once('message', () => resolve()));
  }

  send(message: Record<string, unknown>): void {
    this.child.send(message);
  }

  /** Stops the flood; resolves with what it counted. */
  stop(): Promise<FloodCounts> {
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error('flood client did not stop')), 15_000);
      this.child.once('message', (m: FloodCounts) => {
        clearTimeout(timer);
        resolve(m);
      });
      this.child.send({ type: 'stop' });
    });
  }

  kill(): void {
    if (this.child.exitCode === null) this.child.kill('SIGKILL');
  }
}
