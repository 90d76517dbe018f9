/** Step clocks of a market run: workflow time in ms, the engine's in unix seconds. */
import { patched } from '@temporalio/workflow';
import { REQUEST_CLOCK } from '../patches';
import type { MarketRun } from './run-state';

export const secondsOf = (ms: number): number => Math.floor(ms / 1000);
export const nowSeconds = (): number => secondsOf(Date.now());

/**
 * A request's step clock (ms): the time it carries (REQUEST_CLOCK), so a step decided again after a
 * lost workflow task decides what the lost attempt wrote; but not before the run's last write (a
 * cancel asked for while its order's placement was still queued must not date the order's end
 * before its `book_added_at`); else the workflow's clock.
 */
export function clockOf(run: MarketRun, requested: number | undefined): number {
  return requested !== undefined && patched(REQUEST_CLOCK) ? Math.max(requested, run.lastWriteAt) : Date.now();
}
