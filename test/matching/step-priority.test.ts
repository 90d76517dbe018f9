import { createStepPriority } from '../../src/matching/step-priority';

/** Whether `p` has settled after the pending timers and microtasks up to now have run. */
async function settled(p: Promise<unknown>): Promise<boolean> {
  let done = false;
  void p.then(() => {
    done = true;
  });
  await Promise.resolve();
  await Promise.resolve();
  return done;
}

describe('market steps before settlement (step priority)', () => {
  beforeEach(() => jest.useFakeTimers());
  afterEach(() => jest.useRealTimers());

  it('when no step is under way, then settlement goes at once', async () => {
    const priority = createStepPriority({ maxWaitMs: 100 });
    expect(await settled(priority.quiet())).toBe(true);
  });

  it('when steps of two markets are under way, then settlement waits until both have ended', async () => {
    const priority = createStepPriority({ maxWaitMs: 100 });
    priority.stepStarted('m1');
    priority.stepStarted('m2');
    const waiting = priority.quiet();
    expect(await settled(waiting)).toBe(false);
    priority.stepEnded('m1');
    expect(await settled(waiting)).toBe(false);
    priority.stepEnded('m2');
    expect(await settled(waiting)).toBe(true);
  });

  it('when steps follow each other without a gap, then settlement still goes after the wait bound', async () => {
    const priority = createStepPriority({ maxWaitMs: 100 });
    priority.stepStarted('m1');
    const waiting = priority.quiet();
    jest.advanceTimersByTime(60);
    priority.stepEnded('m1');
    priority.stepStarted('m2'); // m1's end found no step under way: the wait is over, m2's start comes after it
    expect(await settled(waiting)).toBe(true);
    const next = priority.quiet();
    jest.advanceTimersByTime(99);
    expect(await settled(next)).toBe(false);
    jest.advanceTimersByTime(1);
    expect(await settled(next)).toBe(true);
  });

  it('when a step never ends (a load without its write), then its mark lapses and settlement no longer waits for it', async () => {
    let clock = 0;
    const priority = createStepPriority({ maxWaitMs: 100, stepMarkMs: 500, now: () => clock });
    priority.stepStarted('m1');
    clock = 499;
    expect(await settled(priority.quiet())).toBe(false);
    clock = 500;
    expect(await settled(priority.quiet())).toBe(true);
  });

  it('when the bound is 0, then settlement never waits', async () => {
    const priority = createStepPriority({ maxWaitMs: 0 });
    priority.stepStarted('m1');
    expect(await settled(priority.quiet())).toBe(true);
  });
});
