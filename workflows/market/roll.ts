/**
 * When a run continues as new. It wants a new run once its history reaches its bound (or the
 * server suggests it); a quiet run (SETTLED_BEFORE_CONTINUE) then keeps matching, starts no new
 * settlement child, and continues as new once its children finished, or at its wait's bound.
 */
import { patched, workflowInfo } from '@temporalio/workflow';
import { BOUNDED_ROLL, RESTING_CARRIED, SETTLED_BEFORE_CONTINUE } from '../patches';
import { MAX_CARRIED_TRADES, MAX_ROLL_WAIT_MS, OVERDUE_FACTOR } from './limits';
import type { MarketRun } from './run-state';

export const wantsNewRun = (run: MarketRun): boolean => workflowInfo().continueAsNewSuggested || workflowInfo().historyLength >= run.historyLimit;

const carriedTrades = (run: MarketRun): number => run.waitingSettlements.reduce((n, b) => n + b.trades.length, 0);

/** Waited too long for the children: continue as new the way runs before SETTLED_BEFORE_CONTINUE did. */
export const overdue = (run: MarketRun): boolean => workflowInfo().historyLength >= OVERDUE_FACTOR * run.historyLimit || carriedTrades(run) >= MAX_CARRIED_TRADES;

/**
 * Settlement children are not started while a quiet run waits for the ones under way to finish,
 * nor once it carries its batches (a child finishing late must not start a carried batch).
 */
export const holdsSettlements = (run: MarketRun): boolean => run.rolling && run.quiet && (run.carries || !overdue(run));

export const readyToRoll = (run: MarketRun): boolean => run.rolling && (!run.quiet || run.settling === 0 || overdue(run) || Date.now() >= run.rollBy);

/**
 * Called between commands: the run's patch markers are recorded once, where it first wants a new
 * run, so its last task stays free of them.
 */
export function noteRoll(run: MarketRun): void {
  if (run.rolling || !wantsNewRun(run)) return;
  run.rolling = true;
  run.carriesResting = patched(RESTING_CARRIED);
  run.quiet = patched(SETTLED_BEFORE_CONTINUE);
  if (run.quiet && patched(BOUNDED_ROLL)) run.rollBy = Date.now() + (run.input.rollWaitMs ?? MAX_ROLL_WAIT_MS);
}
