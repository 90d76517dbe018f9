/** The end of every step: what it changed, written by ONE idempotent bulk-write activity. */
import { patched } from '@temporalio/workflow';
import type { EngineEvent } from '../../src/engine';
import { foldEvents } from '../../src/matching/batch-write';
import type { DirectEnd, StepInputs } from '../../src/matching/payloads';
import type { StatusReason } from '../../src/ports/status-reasons';
import { SETTLEMENT_COALESCED } from '../patches';
import { step } from './activities';
import type { LoadedRun } from './run-state';
import { startSettlement } from './settlement-children';
import { settlementBatchFor, startWaitingSettlements } from './settlements';

/** How a removal's orders end: its reason as a status reason, and the status it ends them in. */
export type RemovalEnd = { status: 'CANCELLED' | 'MATCH_FAILED'; reason: StatusReason };

export interface WriteOptions {
  /** How orders taken off the book end. */
  removed?: Record<string, RemovalEnd>;
  /** Why the step's other cancels end (the engine's own reason otherwise). */
  reason?: StatusReason;
  /** The step's workflow time (now by default). */
  at?: number;
  /** A placement step's inputs, claimed before the write (STEP_JOURNAL). */
  claim?: StepInputs;
}

/** Writes what one step changed (one activity), then starts the settlement of its trades. */
export async function write(
  run: LoadedRun, events: EngineEvent[], placed: Set<string>, direct: DirectEnd[], { removed = {}, reason, at = Date.now(), claim }: WriteOptions = {},
): Promise<void> {
  if (events.length === 0 && direct.length === 0) return;
  const { book } = run;
  run.lastWriteAt = Math.max(run.lastWriteAt, at);
  const folded = foldEvents(events, placed, (hash) => book.order(hash)?.arrival);
  for (const o of folded.orders) {
    if (o.status !== 'CANCELLED') continue;
    const end = removed[o.hash];
    if (end) Object.assign(o, end);
    else if (reason) o.reason = reason;
  }
  if (folded.lastPrice !== null) run.lastPrice = folded.lastPrice;
  const ticker = folded.book.length > 0 || folded.trades.length > 0
    ? { seq: book.counters.seq, bestBid: book.bestBid(), bestAsk: book.bestAsk(), lastPrice: run.lastPrice }
    : null;
  const coalesced = folded.trades.length > 0 && patched(SETTLEMENT_COALESCED);
  const settlementBatch = coalesced ? settlementBatchFor(run, folded.trades) : undefined;
  run.writing = true;
  try {
    const outcome = await step().applyMatchBatch({
      market: run.market, decimals: run.info.decimals, at, orders: folded.orders, direct, trades: folded.trades,
      book: folded.book, ticker, counters: { ...book.counters }, ...(settlementBatch ? { settlementBatch } : {}), ...(claim ? { step: claim } : {}),
    });
    // A live attempt of this same task claimed the step first, with other inputs: failing the
    // task makes Temporal run it again from history, and the load then returns that claim.
    if (outcome?.diverged) throw new Error(`placement step ${claim?.id} was claimed by another attempt of this workflow task`);
  } finally {
    run.writing = false;
  }
  // Also after a step without trades: a child that finished during its write started nothing.
  startWaitingSettlements(run);
  if (!coalesced && folded.trades.length > 0) await startSettlement(run, folded.trades);
}
