/** The run's command queue: what handlers enqueued, taken one command at a time by the main loop. */
import { patched } from '@temporalio/workflow';
import { DEDUPED_HANDOFFS, WIDE_PLACE_BATCH } from '../patches';
import { MAX_PLACE_BATCH, MAX_PLACE_BATCH_WIDE, REMEMBERED_TAKEN } from './limits';
import type { Command, MarketRun } from './run-state';

function remember(run: MarketRun, hash: string): void {
  run.taken.add(hash);
  if (run.taken.size > REMEMBERED_TAKEN) run.taken.delete(run.taken.values().next().value as string);
}

/**
 * Takes the next command, merging consecutive placements into one batch (DEDUPED_HANDOFFS:
 * without the hashes this run took already, possibly none).
 */
export function take(run: MarketRun): Command {
  const { queue } = run;
  const first = queue.shift()!;
  if (first.kind !== 'place') return first;
  const bound = patched(WIDE_PLACE_BATCH) ? MAX_PLACE_BATCH_WIDE : MAX_PLACE_BATCH;
  const skip = patched(DEDUPED_HANDOFFS) ? run.taken : undefined;
  const hashes = new Set<string>();
  const add = (list: string[]) => {
    for (const h of list) if (!skip?.has(h)) hashes.add(h);
  };
  add(first.hashes);
  while (queue.length > 0 && queue[0].kind === 'place' && hashes.size < bound) add((queue.shift() as { hashes: string[] }).hashes);
  const all = [...hashes];
  // Anything beyond the batch bound goes back to the front, in order.
  if (all.length > bound) queue.unshift({ kind: 'place', hashes: all.slice(bound) });
  const batch = all.slice(0, bound);
  if (skip) for (const h of batch) remember(run, h);
  return { kind: 'place', hashes: batch };
}

/** Placements handed back to the queue's front: they are taken again later, not skipped as taken. */
export function putBack(run: MarketRun, hashes: string[]): void {
  for (const h of hashes) run.taken.delete(h);
  run.queue.unshift({ kind: 'place', hashes });
}

/** A cancel or status change is queued: its caller waits for an answer from this run. */
export const awaitsAnswer = (run: MarketRun): boolean => run.queue.some((c) => c.kind === 'cancel' || c.kind === 'status');
