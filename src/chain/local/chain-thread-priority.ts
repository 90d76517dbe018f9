/**
 * The embedded chain's EVM runs on EDR's native runtime threads (`tokio-rt-worker`), inside the
 * supervisor's process. It stands in for a chain node that, in any deployment, runs on machines of
 * its own. On one shared machine its block execution (a settlement batch is a burst of EVM work)
 * took a core from the exchange's own processes, on the path from a POST to its match, just as a
 * market step ran (docs/benchmarks.md, "Numbers behind the design"). So those threads run at a lower priority: they
 * get every core no one else wants, and give way when the exchange's processes are waiting.
 *
 * Only those threads: Linux sets a thread's nice value on its own (`setpriority` on a thread id),
 * so the supervisor's main thread, and the processes it spawns (which inherit the spawning thread's
 * value), keep theirs. A thread started later (the runtime grows its blocking pool on demand) is
 * caught by the next sweep.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { getPriority, setPriority } from 'node:os';

/** EDR's threads: tokio's runtime workers and blocking pool. */
const CHAIN_THREAD = /^tokio/;

export interface ChainThreadPriority {
  /** The chain's threads at the last sweep (thread ids), each at `nice` or above. */
  lowered(): number[];
  stop(): void;
}

/** This process's threads (id and name); empty where /proc is not there (not Linux). */
export function processThreads(): { tid: number; name: string }[] {
  const taskDir = '/proc/self/task';
  let tids: string[];
  try {
    tids = readdirSync(taskDir);
  } catch {
    return [];
  }
  const threads: { tid: number; name: string }[] = [];
  for (const tid of tids) {
    try {
      threads.push({ tid: Number(tid), name: readFileSync(`${taskDir}/${tid}/comm`, 'utf8').trim() });
    } catch {
      // the thread ended between the listing and the read
    }
  }
  return threads;
}

/**
 * Raises the nice value of the chain's threads to `nice` now and every `everyMs` after (0: never
 * again). `nice` 0 does nothing. A thread already at `nice` or above is left alone; one that cannot
 * be changed (it ended meanwhile) is skipped. Each sweep asks every chain thread again instead of
 * remembering ids: the runtime's blocking pool lets idle threads go, and the kernel reuses ids.
 */
export function lowerChainThreadPriority(nice: number, everyMs = 2_000): ChainThreadPriority {
  let lowered: number[] = [];
  const sweep = () => {
    const now: number[] = [];
    for (const { tid, name } of processThreads()) {
      if (!CHAIN_THREAD.test(name)) continue;
      try {
        if (getPriority(tid) < nice) setPriority(tid, nice);
        now.push(tid);
      } catch {
        // gone, or not ours to change
      }
    }
    lowered = now;
  };
  if (nice <= 0) return { lowered: () => [], stop: () => undefined };
  sweep();
  const timer = everyMs > 0 ? setInterval(sweep, everyMs) : undefined;
  timer?.unref();
  return { lowered: () => [...lowered], stop: () => clearInterval(timer) };
}
