/**
 * Market steps go before settlement's database work in a worker process. Every write of the
 * service goes through one store (one SQLite file under the embedded FerretDB, one write at a
 * time); a settlement that finishes a batch of ~100 orders runs commands of 20-100 ms each, and a
 * market step that started beside them queued behind each of its own commands in turn
 * (docs/benchmarks.md, "Numbers behind the design"). So settlement asks, before each of its commands,
 * whether a step is under way in this process, and waits for it to end (never longer than
 * `maxWaitMs`, so that back-to-back steps cannot starve settlement).
 *
 * A step is marked from its load to the end of its write, per market (the engine runs between
 * the two). A mark left without its end (a load the workflow never followed by a write, a task
 * that failed between them) counts for `stepMarkMs` at most.
 */
export interface StepPriority {
  /** A step of `market` starts (its load); a second start of the same market renews the mark. */
  stepStarted(market: string): void;
  /** The step of `market` has written; settlement may go on. */
  stepEnded(market: string): void;
  /** Resolves once no step is under way in this process, or after the wait bound. */
  quiet(): Promise<void>;
}

/** No priority: settlement never waits (tests, and `SETTLEMENT_YIELD_MS=0`). */
export const NO_STEP_PRIORITY: StepPriority = {
  stepStarted: () => undefined,
  stepEnded: () => undefined,
  quiet: () => Promise.resolve(),
};

export function createStepPriority(options: { maxWaitMs: number; stepMarkMs?: number; now?: () => number }): StepPriority {
  if (options.maxWaitMs <= 0) return NO_STEP_PRIORITY;
  const stepMarkMs = options.stepMarkMs ?? 1_000;
  const now = options.now ?? (() => Date.now());
  /** Per market with a step under way: when its mark lapses. */
  const marks = new Map<string, number>();
  const waiters = new Set<() => void>();

  /** Whether some step is under way (lapsed marks dropped). */
  const busy = (): boolean => {
    const at = now();
    for (const [market, until] of marks) if (until <= at) marks.delete(market);
    return marks.size > 0;
  };

  return {
    stepStarted(market) {
      marks.set(market, now() + stepMarkMs);
    },
    stepEnded(market) {
      marks.delete(market);
      if (busy()) return;
      for (const wake of [...waiters]) wake();
    },
    quiet() {
      if (!busy()) return Promise.resolve();
      return new Promise<void>((resolve) => {
        const wake = () => {
          clearTimeout(timer);
          waiters.delete(wake);
          resolve();
        };
        const timer = setTimeout(wake, options.maxWaitMs);
        waiters.add(wake);
      });
    },
  };
}
