/**
 * Settlement of one match batch (`settlement-{batchId}`: the trades of one or more consecutive
 * matching steps, see SETTLEMENT_COALESCED in workflows/patches.ts): one `matchOrders`
 * call per taker order (a group): send it, wait for the receipt and the confirmations, and move
 * its fills PENDING -> MINED -> CONFIRMED (RETRYING while a failed send is retried; FAILED after
 * MAX_ATTEMPTS). Orders go MATCHED -> FILLED once every fill of theirs is CONFIRMED, or
 * MATCH_FAILED when one failed for good.
 */
import { getExternalWorkflowHandle, log, patched, proxyActivities, sleep, workflowInfo, type ActivityOptions } from '@temporalio/workflow';
import type { SettlementActivities } from '../activities/settlement.activities';
import { marketWorkflowId, settlementGroupsOf, settlementTaskQueue } from '../src/matching/market-ids';
import type { SettlementGroup, SettlementInput } from '../src/matching/payloads';
import { CHAIN_CALL, CHAIN_WAIT, DB_STEP } from './activity-presets';
import { removeOrdersSignal } from './definitions';
import { BATCHED_SETTLEMENT, SETTLEMENT_BLAMES_LEGS, SETTLEMENT_DROPS_EXPIRED, SETTLEMENT_TASK_QUEUE, SETTLEMENT_TWO_STAGES, SETTLEMENT_UNKNOWN_UNCOUNTED } from './patches';
import { unwindBlamed } from './settlement-unwind';
import { listSettlementParties } from './settlement-parties';

interface Stages {
  db: SettlementActivities;
  chain: SettlementActivities;
  waits: SettlementActivities;
}

function stages(): Stages {
  const queue: Pick<ActivityOptions, 'taskQueue'> = patched(SETTLEMENT_TASK_QUEUE) ? { taskQueue: settlementTaskQueue(workflowInfo().taskQueue) } : {};
  return {
    db: proxyActivities<SettlementActivities>({ ...DB_STEP, ...queue }),
    chain: proxyActivities<SettlementActivities>({ ...CHAIN_CALL, ...queue }),
    waits: proxyActivities<SettlementActivities>({ ...CHAIN_WAIT, ...queue }),
  };
}

export const MAX_SETTLEMENT_ATTEMPTS = 5;

/**
 * Rounds a group may go without the chain saying whether its match is on chain: a day at the
 * backoff's one-minute cap. Past it the group ends FAILED and the workflow logs an error: an
 * operator's matter.
 */
export const MAX_UNKNOWN_ROUNDS = 1_440;

export interface SettlementResult {
  status: 'CONFIRMED' | 'FAILED';
  txHash: string;
  attempts: number;
}

type Input = SettlementInput & { retryDelayMs?: number };

export async function settlementWorkflow(input: Input): Promise<SettlementResult> {
  // Alongside the first send, not before it: the listing is for operators, the send for traders.
  const listed = listSettlementParties(input.groups ? input.groups.flatMap((g) => g.tradeIds) : input.tradeIds ?? []);
  const use = stages();
  if (!input.groups) {
    const result = await settleGroup(use, input, { batchId: input.batchId, tradeIds: input.tradeIds ?? [] });
    await listed;
    return result;
  }
  const groups = settlementGroupsOf(input.market, input.groups);
  const results = patched(BATCHED_SETTLEMENT)
    ? await settleTogether(use, input, groups, patched(SETTLEMENT_TWO_STAGES))
    : await Promise.all(groups.map((group) => settleGroup(use, input, group)));
  await listed;
  const failed = results.find((r) => r.status === 'FAILED');
  return {
    status: failed ? 'FAILED' : 'CONFIRMED',
    txHash: results.map((r) => r.txHash).filter(Boolean).join(','),
    attempts: Math.max(0, ...results.map((r) => r.attempts)),
  };
}

/**
 * All groups through the same stages at once. A group that fails (send refused, reverted, left the
 * chain) is retried with the other failures of its round after the backoff, up to
 * MAX_SETTLEMENT_ATTEMPTS sends, as `settleGroup` does for one.
 */
async function settleTogether({ db, chain, waits }: Stages, input: Input, groups: SettlementGroup[], twoStages: boolean): Promise<SettlementResult[]> {
  const chainId = input.market.chain_id;
  const results = new Map<string, SettlementResult>();
  let pending = groups;
  // A batch found again from its fills asks the chain before its first send too.
  const recheck = input.found ? { recheck: true } : {};
  // A round whose outcome is unknown sent nothing: counting it ended FAILED, after a node's silence
  // through the backoff, a group whose first transaction had mined.
  const uncounted = patched(SETTLEMENT_UNKNOWN_UNCOUNTED);
  const dropsExpired = patched(SETTLEMENT_DROPS_EXPIRED);
  const blames = patched(SETTLEMENT_BLAMES_LEGS);
  /** Per group, the rounds whose outcome was unknown (no send made). */
  const unknownRounds = new Map<string, number>();
  for (let attempt = 1; pending.length > 0; attempt++) {
    const both = twoStages ? await waits.sendAndAwaitReceipts({ market: input.market, groups: pending, attempt, ...recheck }) : null;
    const sent = both?.sent ?? (await chain.sendSettlements({ market: input.market, groups: pending, attempt, ...recheck }));
    // Groups refused because of orders the chain now refuses: those fail alone, the others go back to the market.
    if (blames) {
      const blamed = pending.flatMap((group) => {
        const outcome = sent[group.batchId];
        return outcome && !outcome.ok && outcome.blamed?.length ? [{ ...group, blamed: outcome.blamed }] : [];
      });
      if (blamed.length > 0) {
        await unwindBlamed(db, input.market, blamed);
        for (const group of blamed) results.set(group.batchId, { status: 'FAILED', txHash: '', attempts: attempt });
        pending = pending.filter((group) => !blamed.some((b) => b.batchId === group.batchId));
      }
    }
    // Trades whose makers expired on chain since the match: they fail alone, their groups go again without them.
    const expired = dropsExpired ? withoutExpired(pending, sent) : { groups: pending, tradeIds: [] };
    pending = expired.groups;
    const again: SettlementGroup[] = [];
    const failed: SettlementGroup[] = [];
    const txOf = (group: SettlementGroup) => {
      const outcome = sent[group.batchId];
      return outcome?.ok ? outcome.txHash : '';
    };
    /** Whether the group may go round again: sends left, or (unknown) rounds left to learn. */
    const roundsLeft = (group: SettlementGroup, v: 'retry' | 'unknown') => {
      const unknown = unknownRounds.get(group.batchId) ?? 0;
      return v === 'unknown' ? unknown <= MAX_UNKNOWN_ROUNDS : attempt - unknown < MAX_SETTLEMENT_ATTEMPTS;
    };
    /** The groups that passed a stage; the others go to `again` (or `failed` when final or out of attempts). */
    const passed = (list: SettlementGroup[], verdict: (group: SettlementGroup) => true | 'retry' | 'unknown' | 'final') => list.filter((group) => {
      const v = verdict(group);
      if (v === true) return true;
      const left = v !== 'final' && roundsLeft(group, v);
      if (!left && v === 'unknown') log.error('settlement gives up: the chain did not say whether the match is on chain', { batchId: group.batchId, rounds: MAX_UNKNOWN_ROUNDS });
      (left ? again : failed).push(group);
      return false;
    });
    const marks = (list: SettlementGroup[]) => list.map((group) => ({ tradeIds: group.tradeIds, txHash: txOf(group) }));
    const inFlight = passed(pending, (group) => {
      const outcome = sent[group.batchId];
      if (outcome && !outcome.ok && outcome.unknown && uncounted) {
        unknownRounds.set(group.batchId, (unknownRounds.get(group.batchId) ?? 0) + 1);
        return 'unknown';
      }
      if (outcome && !outcome.ok && dropsExpired && outcome.expiredTradeIds?.length) return 'retry';
      return outcome?.ok ? true : outcome && !outcome.transient ? 'final' : 'retry';
    });
    if (inFlight.length > 0) {
      const receipts = both?.receipts ?? (await waits.awaitReceipts({ chainId, txHashes: inFlight.map(txOf) }));
      const mined = passed(inFlight, (group) => receipts[txOf(group)]?.success || 'retry');
      // On a chain whose receipt already carries the confirmations, fills go to CONFIRMED in one write.
      const confirmedAtOnce = mined.filter((group) => receipts[txOf(group)].confirmed);
      const waiting = mined.filter((group) => !receipts[txOf(group)].confirmed);
      let confirmed = confirmedAtOnce;
      if (confirmedAtOnce.length > 0 && !twoStages) await db.markFillsOf({ groups: marks(confirmedAtOnce), status: 'CONFIRMED', passedThrough: ['MINED'] });
      let later: SettlementGroup[] = [];
      if (waiting.length > 0) {
        await db.markFillsOf({ groups: marks(waiting), status: 'MINED' });
        const confirmations = await waits.awaitConfirmationsOf({ chainId, txHashes: waiting.map(txOf) });
        later = passed(waiting, (group) => confirmations[txOf(group)] || 'retry');
        if (later.length > 0 && !twoStages) await db.markFillsOf({ groups: marks(later), status: 'CONFIRMED' });
        confirmed = [...confirmed, ...later];
      }
      if (confirmed.length > 0) {
        if (twoStages) await db.confirmFills({ atOnce: marks(confirmedAtOnce), later: marks(later) });
        else await db.finishOrders({ tradeIds: confirmed.flatMap((group) => group.tradeIds), failed: false });
        for (const group of confirmed) results.set(group.batchId, { status: 'CONFIRMED', txHash: txOf(group), attempts: attempt });
      }
    }
    if (expired.tradeIds.length > 0) {
      await db.markFillsOf({ groups: [{ tradeIds: expired.tradeIds, txHash: '' }], status: 'FAILED' });
      await finishFailed(db, input, expired.tradeIds);
    }
    if (failed.length > 0) {
      await db.markFillsOf({ groups: marks(failed), status: 'FAILED' });
      await finishFailed(db, input, failed.flatMap((group) => group.tradeIds));
      for (const group of failed) results.set(group.batchId, { status: 'FAILED', txHash: txOf(group), attempts: attempt });
    }
    if (again.length > 0) {
      await db.markFillsOf({ groups: marks(again), status: 'RETRYING' });
      await sleep(retryDelayMs(input, attempt));
    }
    pending = again;
  }
  return groups.map((group) => results.get(group.batchId)!);
}

/** The groups without the trades their send's outcome names as expired on chain, and those trades. */
function withoutExpired(
  groups: SettlementGroup[], sent: Record<string, { ok: boolean; expiredTradeIds?: string[] }>,
): { groups: SettlementGroup[]; tradeIds: string[] } {
  const tradeIds: string[] = [];
  const kept = groups.map((group) => {
    const outcome = sent[group.batchId];
    const names = outcome && !outcome.ok ? outcome.expiredTradeIds : undefined;
    if (!names?.length) return group;
    const gone = new Set(names);
    tradeIds.push(...group.tradeIds.filter((id) => gone.has(id)));
    return { ...group, tradeIds: group.tradeIds.filter((id) => !gone.has(id)) };
  });
  return { groups: kept, tradeIds };
}

/** One `matchOrders` call (one taker order and its makers), retried as one. */
async function settleGroup({ db, chain, waits }: Stages, input: Input, { batchId, tradeIds }: SettlementGroup): Promise<SettlementResult> {
  let txHash = '';
  let attempt = 1;
  for (;; attempt++) {
    const sent = await chain.sendSettlement({ batchId, market: input.market, tradeIds, attempt });
    if (sent.ok) {
      txHash = sent.txHash;
      const receipt = await waits.awaitReceipt({ chainId: input.market.chain_id, txHash });
      if (receipt.success) {
        await db.markFills({ tradeIds, status: 'MINED', txHash });
        const final = await waits.awaitConfirmations({ chainId: input.market.chain_id, txHash });
        if (final.confirmed) {
          await db.markFills({ tradeIds, status: 'CONFIRMED', txHash });
          await db.finishOrders({ tradeIds, failed: false });
          return { status: 'CONFIRMED', txHash, attempts: attempt };
        }
      }
    } else if (!sent.transient) {
      break;
    }
    if (attempt >= MAX_SETTLEMENT_ATTEMPTS) break;
    await db.markFills({ tradeIds, status: 'RETRYING', txHash });
    await sleep(retryDelayMs(input, attempt));
  }
  await db.markFills({ tradeIds, status: 'FAILED', txHash });
  await finishFailed(db, input, tradeIds);
  return { status: 'FAILED', txHash, attempts: attempt };
}

/** The wait before send `attempt + 1`: doubling from `retryDelayMs` (default 2 s), at most a minute. */
function retryDelayMs(input: Input, attempt: number): number {
  return Math.min(60_000, (input.retryDelayMs ?? 2_000) * 2 ** (attempt - 1));
}

/**
 * The orders of trades that failed for good: MATCH_FAILED, holds released; orders still on the book
 * leave it through their market's workflow (the book's only writer).
 */
async function finishFailed(db: SettlementActivities, input: Input, tradeIds: string[]): Promise<void> {
  const { resting } = await db.finishOrders({ tradeIds, failed: true });
  if (resting.length > 0) {
    await getExternalWorkflowHandle(marketWorkflowId(input.market)).signal(removeOrdersSignal, { hashes: resting, reason: 'SETTLEMENT_FAILED', at: Date.now() });
  }
}
