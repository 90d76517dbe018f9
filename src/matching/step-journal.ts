/**
 * What each placement step of a market workflow decided over, claimed before the step writes
 * anything (collection `market_steps`, `_id` = `{run id}:{step number}`).
 *
 * A placement step's local activities enter the workflow's history only when its workflow task
 * completes. A worker that dies after the step's writes and before that completion leaves a history
 * without the step, and Temporal runs the task again: the step is decided again with a later
 * workflow clock and possibly more orders queued, and its load would skip the orders the lost
 * attempt already handed over. So the write first records the step's inputs (its clock, how many
 * of the batch's hashes it took, which of those were placeable), and the retry's load hands the
 * workflow those same inputs. The engine is deterministic: it decides the same events, trade ids
 * and settlement batch again, and the guarded writes complete what the lost attempt left undone.
 * Activities only (node:crypto): the workflow sees `PlacementLoad.decided`.
 */
import { createHash } from 'node:crypto';
import type { StepInputs } from './payloads';

export interface StepDecision {
  /** `{run id}:{step number}`: a retried task of the same run numbers its steps the same way. */
  _id: string;
  market_key: string;
  run_id: string;
  /** Workflow time of the step, unix ms. */
  at: number;
  /** How many hashes of the batch the step took (a retry may have more queued). */
  count: number;
  /** stepDigest of those hashes: a retry checks that its batch starts with them. */
  digest: string;
  /** Positions (in those hashes) of the orders the step's load found placeable. */
  placeable: number[];
  created_at: Date;
}

/**
 * The last placement step's whole write, one row per market (collection `market_last_steps`,
 * `_id` = market key), replaced before each placement step writes anything. A run's steps are
 * written one after the other, so only a run's last step can be left half-written, by a run
 * terminated while that write was failing; the next run's start writes it again (every write is
 * guarded: a finished step writes nothing) before it rebuilds the book from the order rows. One
 * row replaced, not a copy in every claim: a run's start deletes its predecessor's claims in one
 * command, and with every step's write in them that was megabytes at once.
 */
export interface LastStepWrite {
  _id: string;
  /** The claim id of the step (`{run id}:{n}`). */
  step: string;
  run_id: string;
  /** The step's number in its run: a stale attempt of an earlier step never replaces a later one. */
  n: number;
  /** The step's `BatchWrite` as JSON, without `step`. */
  write_json: string;
  updated_at: Date;
}

export function stepDigest(hashes: string[]): string {
  return createHash('sha256').update(hashes.join(',')).digest('hex');
}

/** A batch as the load reads it: lower-case, each hash once (the workflow's batches already are). */
export function normalBatch(hashes: string[]): string[] {
  return [...new Set(hashes.map((h) => h.toLowerCase()))];
}

export function decisionOf(marketKey: string, at: number, step: StepInputs, now: Date): StepDecision {
  const hashes = normalBatch(step.hashes);
  const position = new Map(hashes.map((h, i) => [h, i]));
  return {
    _id: step.id, market_key: marketKey, run_id: step.runId, at, count: hashes.length, digest: stepDigest(hashes),
    placeable: step.placeable.map((h) => position.get(h.toLowerCase())).filter((i): i is number => i !== undefined), created_at: now,
  };
}

export function sameDecision(a: StepDecision, b: StepDecision): boolean {
  return a.at === b.at && a.count === b.count && a.digest === b.digest && a.placeable.join(',') === b.placeable.join(',');
}

/** The step number of a claim id (`{run id}:{n}`). */
export function stepNumberOf(id: string): number {
  return Number(id.slice(id.lastIndexOf(':') + 1));
}

/** The recorded decision applies to a batch that starts with the hashes it took. */
export function fitsBatch(decision: StepDecision, hashes: string[]): boolean {
  return decision.count <= hashes.length && stepDigest(hashes.slice(0, decision.count)) === decision.digest;
}
