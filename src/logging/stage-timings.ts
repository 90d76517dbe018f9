/**
 * Where the hot path's time goes, without a profiler: `timed(stage, run)` records how long each
 * stage took, and when STAGE_TIMINGS_S is set the process logs, every that many seconds, each
 * stage's count, mean, max and total since the last line (one `stage timings` record). Off, a
 * stage costs one branch. The e2e bench turns it on with E2E_STAGE_TIMINGS_S.
 */
import type { Logger } from './logger';

interface Tally {
  n: number;
  totalMs: number;
  maxMs: number;
}

let window: Map<string, Tally> | null = null;

export async function timed<T>(stage: string, run: () => Promise<T>): Promise<T> {
  if (!window) return run();
  const started = performance.now();
  try {
    return await run();
  } finally {
    const ms = performance.now() - started;
    const tally = window.get(stage) ?? { n: 0, totalMs: 0, maxMs: 0 };
    tally.n += 1;
    tally.totalMs += ms;
    tally.maxMs = Math.max(tally.maxMs, ms);
    window.set(stage, tally);
  }
}

/** Starts the periodic log (no-op for 0/undefined); returns a stop function that logs the last window. */
export function startStageTimings(logger: Logger, everySeconds: number | undefined): () => void {
  if (!everySeconds) return () => undefined;
  window = new Map();
  const flush = () => {
    if (!window || window.size === 0) return;
    const stages: Record<string, { n: number; mean_ms: number; max_ms: number; total_s: number }> = {};
    for (const [stage, t] of [...window.entries()].sort(([a], [b]) => a.localeCompare(b))) {
      stages[stage] = { n: t.n, mean_ms: Math.round(t.totalMs / t.n), max_ms: Math.round(t.maxMs), total_s: Math.round(t.totalMs) / 1000 };
    }
    window = new Map();
    logger.warn({ window_s: everySeconds, stages }, 'stage timings');
  };
  const timer = setInterval(flush, everySeconds * 1000);
  timer.unref();
  return () => {
    clearInterval(timer);
    flush();
    window = null;
  };
}
