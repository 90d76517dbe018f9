/**
 * The end of a run that continues as new: it answers every update still queued, starts or carries
 * its settlement batches, and hands the next run what it has not applied (placements, removals,
 * returns), its counters and its resting list.
 */
import { allHandlersFinished, condition, log, patched, sleep } from '@temporalio/workflow';
import type { MarketWorkflowInput, RemoveOrders, ReturnOrders } from '../definitions';
import { HELD_HANDOFFS } from '../patches';
import { db, local } from './activities';
import { dispatch } from './dispatch';
import { HANDOFF_DRAIN_MS, HANDOFF_HOLD_MS, MAX_CARRIED_PENDING, MAX_CARRIED_RESTING } from './limits';
import { awaitsAnswer, take } from './queue';
import { overdue } from './roll';
import type { LoadedRun } from './run-state';
import { carriedSettlements, startWaitingSettlements } from './settlements';

/**
 * Stops taking placements and lets every handler return: updates need their answer from this run,
 * so the queue is served up to the last one. Returns whether the run holds the market's hand-offs
 * (HELD_HANDOFFS) for the next run to release.
 */
export async function finishRun(run: LoadedRun): Promise<{ holds: boolean }> {
  run.carries = run.quiet && !overdue(run);
  const holds = run.carries && patched(HELD_HANDOFFS);
  if (holds && run.rollBy !== Infinity) {
    // BOUNDED_ROLL: the activity's completion starts the last task.
    await db.holdHandoffs({ market: run.market, holdMs: HANDOFF_HOLD_MS, drainMs: HANDOFF_DRAIN_MS });
  } else if (holds) {
    await local.holdHandoffs({ market: run.market, holdMs: HANDOFF_HOLD_MS });
    await sleep(HANDOFF_DRAIN_MS);
  }
  for (;;) {
    while (awaitsAnswer(run)) await dispatch(run, take(run));
    if (!run.carries) startWaitingSettlements(run, true); // no trade waits past the run
    await Promise.all(run.starting.splice(0)); // every settlement started before the run ends
    await condition(() => allHandlersFinished() || awaitsAnswer(run));
    if (!awaitsAnswer(run)) break;
  }
  return { holds };
}

/** The next run's input: what is left in the queue, in order, and what this run carries over. */
export function nextRunInput(run: LoadedRun, holds: boolean): MarketWorkflowInput {
  const { input, book } = run;
  // Each hash once (the sweeper's copies repeat them), none this run took, in arrival order, bounded.
  const queued = new Set<string>();
  const pendingRemovals: RemoveOrders[] = [];
  const pendingReturns: ReturnOrders[] = [];
  for (const c of run.queue) {
    if (c.kind === 'place') {
      for (const h of c.hashes) if (!run.taken.has(h)) queued.add(h);
    } else if (c.kind === 'remove') {
      pendingRemovals.push(c.request);
    } else if (c.kind === 'return') {
      pendingReturns.push(c.request);
    }
  }
  const maxPending = input.maxCarriedPending ?? MAX_CARRIED_PENDING;
  const pending = [...queued].slice(0, maxPending);
  if (queued.size > maxPending) log.warn('hand-offs left to the sweeper', { market: run.key, carried: maxPending, left: queued.size - maxPending });
  // A quiet run's waiting batches (all written) are settled by the next run, under the same ids.
  const pendingSettlements = run.carries ? carriedSettlements(run) : [];
  const resting = run.carriesResting && book.restingCount <= (input.maxCarriedResting ?? MAX_CARRIED_RESTING) ? book.restingHashes() : undefined;
  return {
    market: run.market, counters: { ...book.counters }, changes: run.changes, lastPrice: run.lastPrice, lastWriteAt: run.lastWriteAt,
    historyLimit: input.historyLimit, rollWaitMs: input.rollWaitMs, maxCarriedResting: input.maxCarriedResting,
    maxCarriedPending: input.maxCarriedPending,
    settlementRetryDelayMs: input.settlementRetryDelayMs, pending, pendingRemovals,
    ...(pendingSettlements.length > 0 ? { pendingSettlements } : {}), ...(holds ? { handoffsHeld: true } : {}),
    ...(pendingReturns.length > 0 ? { pendingReturns } : {}),
    ...(resting ? { resting } : {}),
  };
}
