/**
 * Removals (signals, no answer): cancels seen on chain, nonce bumps, settlement failures, and
 * settlement's returns after a match failed because of some of its orders.
 */
import { patched } from '@temporalio/workflow';
import type { EngineEvent } from '../../src/engine';
import type { DirectEnd } from '../../src/matching/payloads';
import { statusReasonFor } from '../../src/ports/status-reasons';
import type { RemoveOrders, ReturnOrders } from '../definitions';
import { applyReturn } from '../market-returns';
import { REMOVE_UNPLACED } from '../patches';
import { db } from './activities';
import { clockOf, secondsOf } from './clock';
import type { LoadedRun } from './run-state';
import { write, type RemovalEnd } from './write-step';

export async function remove(run: LoadedRun, request: RemoveOrders): Promise<void> {
  const { book, key } = run;
  const at = clockOf(run, request.at);
  const now = secondsOf(at);
  const events: EngineEvent[] = [];
  const removed: Record<string, RemovalEnd> = {};
  const end = removalEndOf(request);
  const elsewhere: string[] = [];
  for (const hash of request.hashes.map((h) => h.toLowerCase())) {
    if (!book.order(hash)) {
      elsewhere.push(hash);
      continue;
    }
    for (const e of book.cancel(hash, now, 'OPERATOR')) events.push(e);
    removed[hash] = end;
  }
  const direct: DirectEnd[] = [];
  // A settlement failure concerns orders that traded, so never one still waiting for its placement.
  if (end.status === 'CANCELLED' && elsewhere.length > 0 && patched(REMOVE_UNPLACED)) {
    for (const o of await db.lookupOrders({ hashes: elsewhere })) {
      // Its placement, when it comes, finds it ended and skips it.
      if (o.market_key === key && o.status === 'OPEN' && o.handoff === 'PENDING') direct.push({ hash: o.order_hash, ...end });
    }
  }
  await write(run, events, new Set(), direct, { removed, at });
}

/** Settlement's return: the other orders of a failed match back where they stood (market-returns.ts). */
export async function giveBack(run: LoadedRun, request: ReturnOrders): Promise<void> {
  const at = clockOf(run, request.at);
  const { events, failed } = await applyReturn(run.book, run.key, request, secondsOf(at));
  const removed: Record<string, RemovalEnd> = {};
  for (const [hash, code] of Object.entries(failed)) removed[hash] = { status: 'MATCH_FAILED', reason: statusReasonFor('MATCH_FAILED', code) ?? 'SETTLEMENT_FAILED' };
  await write(run, events, new Set(), [], { at, removed });
}

function removalEndOf(request: RemoveOrders): RemovalEnd {
  const status = request.status ?? (request.reason === 'SETTLEMENT_FAILED' ? 'MATCH_FAILED' : 'CANCELLED');
  return { status, reason: statusReasonFor(status, request.reason) ?? 'USER_CANCEL' };
}
