/**
 * Coalesced settlement (SETTLEMENT_COALESCED): each trading step's trades join the newest waiting
 * batch (up to MAX_SETTLEMENT_TRADES), and at most MAX_SETTLING children of a run are under way;
 * when one finishes, the next waiting batch starts. Batches a previous run carried over, or a run
 * started cold found unsettled, go out first.
 */
import { patched } from '@temporalio/workflow';
import { settlementBatchIdOf } from '../../src/matching/market-ids';
import type { TradeWrite } from '../../src/matching/payloads';
import type { CarriedSettlement, PendingSettlementsPage } from '../../src/matching/pending-settlements';
import { RECOVER_PENDING_SETTLEMENTS } from '../patches';
import { db } from './activities';
import { MAX_SETTLEMENT_TRADES, MAX_SETTLING } from './limits';
import { holdsSettlements } from './roll';
import type { MarketRun, SettlingTrade } from './run-state';
import { leftToRunningChild, startSettlementChild } from './settlement-children';

/**
 * The batch that will carry `trades` (the newest waiting one while it has room, else a new one
 * named after their first trade), which they join; its id goes on the fills.
 */
export function settlementBatchFor(run: MarketRun, trades: TradeWrite[]): string {
  const last = run.waitingSettlements[run.waitingSettlements.length - 1];
  // Never a found batch: its child may be under way already, and would not settle trades added here.
  if (last && !last.found && last.trades.length < MAX_SETTLEMENT_TRADES) {
    last.trades.push(...trades);
    return last.batchId;
  }
  const batchId = settlementBatchIdOf(run.key, trades[0].tradeId);
  run.waitingSettlements.push({ batchId, trades: [...trades] });
  return batchId;
}

/**
 * Starts waiting batches while fewer than MAX_SETTLING children are under way (`all`: every one,
 * before continue-as-new). Runs again whenever a child of this run finishes.
 */
export function startWaitingSettlements(run: MarketRun, all = false): void {
  while (!run.writing && run.waitingSettlements.length > 0 && (all || (!holdsSettlements(run) && run.settling < MAX_SETTLING))) {
    const { batchId, trades, found } = run.waitingSettlements.shift()!;
    run.settling += 1;
    // A found batch whose child is under way (or a run's before) is that child's to settle.
    const started = found ? startSettlementChild(run, batchId, trades, true).catch(leftToRunningChild) : startSettlementChild(run, batchId, trades);
    run.starting.push(started);
    void started
      .then((child) => child?.result())
      .catch(() => undefined)
      .then(() => {
        run.settling -= 1;
        startWaitingSettlements(run);
      });
  }
}

const settlingOf = (carried: CarriedSettlement): SettlingTrade[] => carried.trades.map(([tradeId, orderHash]) => ({ tradeId, taker: { orderHash } }));

/**
 * At a run's start: the batches the previous run carried over (SETTLED_BEFORE_CONTINUE), and, in a
 * run started cold in a market that `traded` (counters stored, none in its input), what a
 * terminated run wrote and never settled. Then starts what it may.
 */
export async function resumeSettlements(run: MarketRun, traded: boolean): Promise<void> {
  for (const carried of run.input.pendingSettlements ?? []) {
    run.waitingSettlements.push({ batchId: carried.batchId, trades: settlingOf(carried), ...(carried.found ? { found: true } : {}) });
  }
  if (run.input.counters === undefined && traded && patched(RECOVER_PENDING_SETTLEMENTS)) {
    for (let from: number | null = 0; from !== null;) {
      const page: PendingSettlementsPage = await db.loadPendingSettlements({ marketKey: run.key, from });
      for (const found of page.batches) run.waitingSettlements.push({ batchId: found.batchId, trades: settlingOf(found), found: true });
      from = page.next;
    }
  }
  startWaitingSettlements(run);
}

/** The waiting batches (all written) as the next run's input: it settles them under the same ids. */
export function carriedSettlements(run: MarketRun): CarriedSettlement[] {
  return run.waitingSettlements.map((b): CarriedSettlement => ({
    batchId: b.batchId, trades: b.trades.map((t): [string, string] => [t.tradeId, t.taker.orderHash]), ...(b.found ? { found: true } : {}),
  }));
}
