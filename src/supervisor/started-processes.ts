import { existsSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { identityOf, stillRuns, type ProcessIdentity } from './process-identity';

const RECORD_VERSION = 1;
const TERM_GRACE_MS = 10_000;
const KILL_GRACE_MS = 5_000;

export interface StartedProcess extends ProcessIdentity {
  name: string;
}

interface StartRecord {
  version: number;
  dataDir: string;
  supervisor: ProcessIdentity;
  processes: StartedProcess[];
}

export function startRecordFile(dataDir: string): string {
  return join(dataDir, 'supervisor.json');
}

/** Where there is no /proc, no process can be proven ours: nothing is stopped. */
const canProve = () => existsSync('/proc/self/stat');

function pidRuns(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

function readRecord(file: string): StartRecord | undefined {
  try {
    const record = JSON.parse(readFileSync(file, 'utf8')) as StartRecord;
    return record.version === RECORD_VERSION ? record : undefined;
  } catch {
    return undefined; // none, or torn by a crash mid-write (writes are renames, so only a foreign file)
  }
}

async function waitUntilGone(processes: StartedProcess[], ms: number): Promise<StartedProcess[]> {
  const until = Date.now() + ms;
  let left = processes.filter(stillRuns);
  while (left.length > 0 && Date.now() < until) {
    await new Promise((r) => setTimeout(r, 100));
    left = left.filter(stillRuns);
  }
  return left;
}

function signal(processes: StartedProcess[], name: NodeJS.Signals): void {
  for (const p of processes) {
    try {
      process.kill(p.pid, name);
    } catch {
      // gone meanwhile
    }
  }
}

const listed = (processes: StartedProcess[]) => processes.map((p) => `${p.name} (pid ${p.pid})`).join(', ');

/**
 * What this supervisor started, kept in DATA_DIR/supervisor.json so that a later start can clean
 * up after it when it was killed without stopping its tree (SIGKILL, the OOM killer, a closed
 * terminal). The file is also the data folder's lock: one supervisor per folder, since two would
 * share the SQLite files.
 */
export class StartedProcesses {
  private readonly record: StartRecord;

  private constructor(private readonly file: string, dataDir: string) {
    const self = identityOf(process.pid) ?? { pid: process.pid, startTime: '', bootId: '', cmdline: [] };
    this.record = { version: RECORD_VERSION, dataDir, supervisor: self, processes: [] };
    this.write();
  }

  /**
   * Takes `dataDir` for this supervisor. A supervisor of it that still runs stops the start. The
   * processes a previous supervisor recorded are stopped (SIGTERM, then SIGKILL) when they still
   * run, which is proven by pid, start time, boot and command line; anything else is left alone.
   */
  static async take(dataDir: string, log: (line: string) => void): Promise<StartedProcesses> {
    const file = startRecordFile(dataDir);
    const previous = readRecord(file);
    if (previous) {
      const owner = previous.supervisor;
      if (owner.pid !== process.pid && (canProve() ? stillRuns(owner) : pidRuns(owner.pid))) {
        throw new Error(`Another 'npm start' (pid ${owner.pid}) is using ${dataDir}. Stop it first, or set DATA_DIR.`);
      }
      await stopLeftovers(previous, dataDir, log);
    }
    return new StartedProcesses(file, dataDir);
  }

  /** Records a process this supervisor started (a restarted one replaces its earlier entry). */
  started(name: string, pid: number): void {
    const identity = identityOf(pid) ?? { pid, startTime: '', bootId: '', cmdline: [] };
    this.record.processes = [...this.record.processes.filter((p) => p.name !== name), { name, ...identity }];
    this.write();
  }

  /** After a clean stop: nothing of this start runs any more. */
  release(): void {
    rmSync(this.file, { force: true });
  }

  private write(): void {
    // A rename is atomic: a crash leaves the old record or the new one, never half of one.
    const temp = `${this.file}.${process.pid}.tmp`;
    writeFileSync(temp, `${JSON.stringify(this.record, null, 2)}\n`);
    renameSync(temp, this.file);
  }
}

async function stopLeftovers(previous: StartRecord, dataDir: string, log: (line: string) => void): Promise<void> {
  const owner = `the previous start (pid ${previous.supervisor.pid})`;
  if (!canProve() || previous.dataDir !== dataDir) {
    const maybe = previous.processes.filter((p) => pidRuns(p.pid));
    if (maybe.length > 0) log(`${owner} recorded ${listed(maybe)}; they cannot be proven to be its processes here, so they are left alone`);
    return;
  }
  const running = [...previous.processes].reverse().filter(stillRuns);
  if (running.length === 0) return;
  signal(running, 'SIGTERM');
  let left = await waitUntilGone(running, TERM_GRACE_MS);
  if (left.length > 0) {
    signal(left, 'SIGKILL');
    left = await waitUntilGone(left, KILL_GRACE_MS);
  }
  if (left.length > 0) throw new Error(`${owner} left ${listed(left)} running in ${dataDir}, and they did not stop. Stop them, then start again.`);
  log(`stopped what ${owner} left running in ${dataDir}: ${listed(running)}`);
}
