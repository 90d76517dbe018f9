/**
 * One long-lived workflow per market (`market-{chain_id}-{condition_id}`): the only writer of the
 * market's book. Placement, cancels, expiry and status changes are queued by the handlers and
 * applied one at a time by the main loop, through the pure engine, so a cancel racing a match has
 * exactly one winner. Each step ends with ONE idempotent bulk-write activity. The book is rebuilt
 * from MongoDB at the start of every run (first start and after continue-as-new).
 */
import { condition, continueAsNew } from '@temporalio/workflow';
import type { MarketWorkflowInput } from '../definitions';
import { finishRun, nextRunInput } from './continue-as-new';
import { dispatch } from './dispatch';
import { expire } from './expire';
import { setHandlers } from './handlers';
import { loadBook } from './load-book';
import { take } from './queue';
import { noteRoll, readyToRoll, wantsNewRun } from './roll';
import { newRun } from './run-state';
import { resumeSettlements } from './settlements';

export async function marketWorkflow(input: MarketWorkflowInput): Promise<void> {
  const started = newRun(input);
  setHandlers(started);
  const { run, traded } = await loadBook(started);
  await resumeSettlements(run, traded);

  for (;;) {
    // A quiet run keeps matching while it waits for its children; the last one finishing wakes it,
    // or its wait's bound (BOUNDED_ROLL).
    const expiry = run.book.nextExpiration();
    const next = Math.min(expiry === null ? Infinity : expiry * 1000, run.rolling && !readyToRoll(run) ? run.rollBy : Infinity);
    const wake = () => run.queue.length > 0 || (wantsNewRun(run) && !run.rolling) || readyToRoll(run);
    if (next === Infinity) await condition(wake);
    else await condition(wake, Math.max(1, next - Date.now()));
    // Under constant load the queue never empties: the history bound is checked between steps. A
    // run that is ready continues as new at once, in the task that woke it: the shorter that task,
    // the less likely a signal lands in it and fails it.
    for (;;) {
      noteRoll(run);
      if (run.queue.length === 0 || readyToRoll(run)) break;
      await dispatch(run, take(run));
    }
    await expire(run);
    noteRoll(run);
    if (readyToRoll(run)) break;
  }
  const { holds } = await finishRun(run);
  await continueAsNew<typeof marketWorkflow>(nextRunInput(run, holds));
}
