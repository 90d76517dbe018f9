/**
 * Settlement children of a market run (workflows/settlement.workflow.ts): one per batch of trades,
 * one group (one `matchOrders`) per taker order. They outlive the run that starts them.
 */
import { defineSearchAttributeKey, SearchAttributeType, WorkflowExecutionAlreadyStartedError } from '@temporalio/common';
import { type ChildWorkflowOptions, ParentClosePolicy, patched, startChild } from '@temporalio/workflow';
import { settlementBatchIdOf, settlementWorkflowId } from '../../src/matching/market-ids';
import type { SettlementInput, TradeWrite } from '../../src/matching/payloads';
import { SETTLEMENT_PER_STEP, SETTLEMENT_START_ASYNC } from '../patches';
import { settlementWorkflow } from '../settlement.workflow';
import { MEMO_TAKERS } from './limits';
import type { MarketRun, SettlingTrade } from './run-state';

const MARKET_ID = defineSearchAttributeKey('MarketId', SearchAttributeType.KEYWORD);
const ORDER_HASH = defineSearchAttributeKey('OrderHash', SearchAttributeType.KEYWORD);

/** The trades by taker order, in order: each group is one `matchOrders(taker, makers)`. */
function takerGroupsOf<T extends SettlingTrade>(trades: T[]): T[][] {
  const groups: T[][] = [];
  for (const t of trades) {
    const last = groups[groups.length - 1];
    if (last && last[0].taker.orderHash === t.taker.orderHash) last.push(t);
    else groups.push([t]);
  }
  return groups;
}

/** A settlement child, started (not awaited); `settle` without the market and retry delay. */
function settlementChild(run: MarketRun, batchId: string, settle: Omit<SettlementInput, 'market' | 'batchId'>, options: Pick<ChildWorkflowOptions, 'memo' | 'typedSearchAttributes'>) {
  return startChild(settlementWorkflow, {
    workflowId: settlementWorkflowId(batchId),
    args: [{ market: run.market, batchId, ...settle, retryDelayMs: run.input.settlementRetryDelayMs }],
    // Settlement outlives this run: continue-as-new must not cancel it.
    parentClosePolicy: ParentClosePolicy.ABANDON,
    ...options,
  });
}

/** One settlement child for `trades`: one group (one `matchOrders`) per taker order, side by side. */
export function startSettlementChild(run: MarketRun, batchId: string, trades: SettlingTrade[], found = false) {
  const groups = takerGroupsOf(trades);
  // The memo lists the batch's first taker orders (MEMO_TAKERS; a search attribute value is
  // limited to 2 KB, ~25 hashes): OrderHash is the first taker, and each fill record names its
  // batch (`settlement_batch`). The memo is not part of the command's determinism check.
  const takers = groups.map((g) => g[0].taker.orderHash);
  // Compact: no separate list of every trade, and each group's batch id follows from its first trade.
  return settlementChild(run, batchId, { groups: groups.map((g) => ({ tradeIds: g.map((t) => t.tradeId) })), ...(found ? { found } : {}) }, {
    memo: { market: run.key, takers: takers.slice(0, MEMO_TAKERS), takers_total: takers.length, trades: trades.length },
    typedSearchAttributes: [{ key: MARKET_ID, value: run.key }, { key: ORDER_HASH, value: takers[0] }],
  });
}

/** A found batch's start refused because its child is already under way: nothing to start. */
export function leftToRunningChild(error: unknown): undefined {
  if (error instanceof WorkflowExecutionAlreadyStartedError) return undefined;
  throw error;
}

/**
 * Runs before SETTLEMENT_COALESCED: one settlement child per step (SETTLEMENT_PER_STEP), or
 * before that, one per taker order, one after the other: each start cost the market a workflow
 * task, and the step's takers queued behind them.
 */
export async function startSettlement(run: MarketRun, trades: TradeWrite[]): Promise<void> {
  const groups = takerGroupsOf(trades);
  const batchIdOf = (group: SettlingTrade[]) => settlementBatchIdOf(run.key, group[0].tradeId);
  if (patched(SETTLEMENT_PER_STEP)) {
    const started = startSettlementChild(run, batchIdOf(groups[0]), trades);
    if (!patched(SETTLEMENT_START_ASYNC)) {
      await started;
      return;
    }
    // A failed start still fails the run, when the starts are awaited (as an awaited start did).
    started.catch(() => undefined);
    run.starting.push(started);
    return;
  }
  for (const group of groups) {
    await settlementChild(run, batchIdOf(group), { tradeIds: group.map((t) => t.tradeId) }, {
      memo: { market: run.key, taker: group[0].taker.orderHash, trades: group.length },
      typedSearchAttributes: [{ key: MARKET_ID, value: run.key }, { key: ORDER_HASH, value: group[0].taker.orderHash }],
    });
  }
}
