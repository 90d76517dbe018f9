import { readFileSync } from 'node:fs';

/**
 * What tells one process from any other on this machine, ever: its pid, its start time (clock ticks
 * after boot, /proc/<pid>/stat field 22) and the boot it ran in, plus its command line. A pid alone
 * is reused; the four together name one process. Linux only: elsewhere there is no identity to
 * read, and nothing is proven.
 */
export interface ProcessIdentity {
  pid: number;
  startTime: string;
  bootId: string;
  cmdline: string[];
}

function bootId(): string {
  return readFileSync('/proc/sys/kernel/random/boot_id', 'utf8').trim();
}

/** The identity of a running process, or undefined when it is gone or /proc cannot say. */
export function identityOf(pid: number): ProcessIdentity | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // Fields after the command name, which may hold spaces and parentheses: state is field 3.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    if (fields[0] === 'Z') return undefined; // exited, not yet reaped: nothing left to stop
    const cmdline = readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0');
    if (cmdline.at(-1) === '') cmdline.pop();
    return { pid, startTime: fields[19], bootId: bootId(), cmdline };
  } catch {
    return undefined;
  }
}

/** True when `recorded` still runs: the same pid, start time, boot and command line. */
export function stillRuns(recorded: ProcessIdentity): boolean {
  const now = identityOf(recorded.pid);
  return now !== undefined
    && now.startTime === recorded.startTime
    && now.bootId === recorded.bootId
    && now.cmdline.length === recorded.cmdline.length
    && now.cmdline.every((arg, i) => arg === recorded.cmdline[i]);
}
