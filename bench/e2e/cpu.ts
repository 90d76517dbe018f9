/**
 * CPU time of the service's processes (the supervisor's process tree) and of the bench itself,
 * per phase, from /proc (Linux; elsewhere the figures are null). A phase's latency only means
 * something beside how busy the machine was: the service shares its cores with the bench client
 * and, on a shared machine, with other tenants (docs/benchmarks.md).
 */
import { readdirSync, readFileSync, readlinkSync } from 'node:fs';

/** Clock ticks per second of /proc/<pid>/stat's utime and stime (USER_HZ, 100 on Linux). */
const TICKS_PER_S = 100;

/** A process's role in the service, from its command line. */
function roleOf(cmdline: string): string {
  // Our Node scripts first: the worker's command line also names its preload, under src/temporal/.
  if (cmdline.includes('workers/main')) return 'worker';
  if (cmdline.includes('api/main')) return 'api';
  if (cmdline.includes('supervisor/main')) return 'chain_and_supervisor';
  // The demo market makers are load like the bench's own, not part of the service's cost.
  if (cmdline.includes('bots/demo-bots')) return 'bots';
  if (cmdline.includes('ferretdb')) return 'ferretdb';
  if (cmdline.includes('temporal')) return 'temporal';
  return 'other';
}

interface ProcSample {
  role: string;
  seconds: number;
}

function readProcesses(): Map<number, { ppid: number; seconds: number; cmdline: string }> {
  const out = new Map<number, { ppid: number; seconds: number; cmdline: string }>();
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      // Fields after the command name (which may hold spaces) start past the last ')'.
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      const seconds = (Number(fields[11]) + Number(fields[12])) / TICKS_PER_S;
      const cmdline = readFileSync(`/proc/${entry}/cmdline`, 'utf8').replace(/\0/g, ' ');
      out.set(Number(entry), { ppid: Number(fields[1]), seconds, cmdline });
    } catch {
      // The process ended while being read.
    }
  }
  return out;
}

/**
 * The executable of the first process with `role` in the tree under `rootPid` (`/proc/<pid>/exe`),
 * or null where /proc cannot say (not Linux, or no such process).
 */
export function executableOf(rootPid: number, role: string): string | null {
  const pid = pidOf(rootPid, role);
  if (pid === null) return null;
  try {
    return readlinkSync(`/proc/${pid}/exe`);
  } catch {
    return null;
  }
}

/** The pid of the first process with `role` in the tree under `rootPid`, or null. */
export function pidOf(rootPid: number, role: string): number | null {
  for (const [pid, p] of sampleTree(rootPid) ?? []) if (p.role === role) return pid;
  return null;
}

/** Roles that load the service rather than serve: left out of its cost (bench/e2e/cost.ts). */
export const LOAD_ROLES: readonly string[] = ['bench', 'bots'];

/** Pid -> role of every process in the tree under `rootPid` (itself included); empty off Linux. */
export function processRoles(rootPid: number): Map<number, string> {
  return new Map([...(sampleTree(rootPid) ?? [])].map(([pid, p]) => [pid, p.role]));
}

/** Per pid of the tree under `rootPid` (itself included): its role and CPU seconds so far. */
function sampleTree(rootPid: number): Map<number, ProcSample> | null {
  let all;
  try {
    all = readProcesses();
  } catch {
    return null;
  }
  const children = new Map<number, number[]>();
  for (const [pid, p] of all) children.set(p.ppid, [...(children.get(p.ppid) ?? []), pid]);
  const out = new Map<number, ProcSample>();
  const queue = [rootPid];
  while (queue.length > 0) {
    const pid = queue.shift()!;
    const p = all.get(pid);
    if (p) out.set(pid, { role: roleOf(p.cmdline), seconds: p.seconds });
    queue.push(...(children.get(pid) ?? []));
  }
  return out;
}

/**
 * Resident memory in MiB per role of the tree under `rootPid` (VmRSS of /proc/<pid>/status,
 * summed over a role's processes), or null where /proc cannot say.
 */
export function rssByRole(rootPid: number): Record<string, number> | null {
  const tree = sampleTree(rootPid);
  if (!tree) return null;
  const mib: Record<string, number> = {};
  for (const [pid, p] of tree) {
    let kib = 0;
    try {
      kib = Number(/^VmRSS:\s+(\d+)\s+kB/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? 0);
    } catch {
      continue; // it ended while being read
    }
    mib[p.role] = (mib[p.role] ?? 0) + kib / 1024;
  }
  for (const k of Object.keys(mib)) mib[k] = Math.round(mib[k] * 10) / 10;
  return mib;
}

export interface PhaseCpu {
  /** CPU seconds per role over the phase (service processes, and `bench` for this process). */
  seconds: Record<string, number>;
  /** All of it divided by the phase's wall time: cores kept busy (out of `os.cpus().length`). */
  cores: number;
}

export class CpuMeter {
  private tree: Map<number, ProcSample> | null = null;
  private bench = process.cpuUsage();
  private startedAt = performance.now();

  constructor(private readonly rootPid: number) {}

  start(): void {
    this.tree = sampleTree(this.rootPid);
    this.bench = process.cpuUsage();
    this.startedAt = performance.now();
  }

  /** CPU since `start`, per role; processes that started or ended in between are left out. */
  since(): PhaseCpu | null {
    const before = this.tree;
    const after = sampleTree(this.rootPid);
    if (!before || !after) return null;
    const seconds: Record<string, number> = {};
    for (const [pid, now] of after) {
      const then = before.get(pid);
      if (!then) continue;
      seconds[now.role] = (seconds[now.role] ?? 0) + now.seconds - then.seconds;
    }
    const bench = process.cpuUsage(this.bench);
    seconds.bench = (bench.user + bench.system) / 1e6;
    const wall = (performance.now() - this.startedAt) / 1000;
    const total = Object.values(seconds).reduce((a, b) => a + b, 0);
    for (const k of Object.keys(seconds)) seconds[k] = Math.round(seconds[k] * 10) / 10;
    return { seconds, cores: wall > 0 ? Math.round((total / wall) * 100) / 100 : 0 };
  }
}
