/** A market status change (an update): CLOSED and RESOLVED cancel every resting order first. */
import { workflowInfo } from '@temporalio/workflow';
import type { StatusChange, StatusResult } from '../definitions';
import { db } from './activities';
import { clockOf, secondsOf } from './clock';
import type { LoadedRun, MarketRun } from './run-state';
import { write } from './write-step';

/** Why a change is refused, given the market's status now; null when it may go ahead. */
export function statusRefusal(run: MarketRun, change: StatusChange): string | null {
  const { status } = run.info;
  if (status === 'RESOLVED' && change.status !== 'RESOLVED') return 'a resolved market cannot change status';
  if (change.expected_from !== undefined && change.expected_from !== status) {
    return `Market status changed concurrently (expected ${change.expected_from}, is ${status}); retry`;
  }
  return null;
}

export async function changeStatus(run: LoadedRun, change: StatusChange): Promise<StatusResult> {
  const { book, market } = run;
  const from = run.info.status;
  const refused = statusRefusal(run, change);
  if (refused) return { status: run.info.status, resolution_outcome: run.info.resolution_outcome, cancelled: 0, refused };
  const ending = change.status === 'CLOSED' || change.status === 'RESOLVED';
  const before = book.restingCount;
  const at = clockOf(run, change.requested_at);
  const reason = change.status === 'RESOLVED' ? 'MARKET_RESOLVED' : 'MARKET_CLOSED';
  if (ending) await write(run, book.cancelAll(secondsOf(at), {}, 'MARKET_CLOSED'), new Set(), [], { at, reason });
  const resolution = change.status === 'RESOLVED' ? (change.resolution_outcome ?? null) : null;
  run.changes += 1;
  await db.applyMarketStatus({
    // The run's id too: a run started cold (after a terminated one) counts its changes from 0 again.
    market, change_id: `${workflowInfo().workflowId}:${workflowInfo().runId}:status:${run.changes}`, from_status: from, to_status: change.status,
    resolution_outcome: resolution, actor: change.actor, at,
  });
  run.info = { ...run.info, status: change.status, resolution_outcome: resolution };
  return { status: run.info.status, resolution_outcome: run.info.resolution_outcome, cancelled: ending ? before : 0 };
}
