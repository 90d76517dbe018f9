/**
 * Settlement of one match batch (`settlement-{batchId}`, one per matching step): for each taker
 * order's `matchOrders` call, side by side: send it, wait for the receipt and the confirmations,
 * and move its fills PENDING -> MINED -> CONFIRMED (RETRYING while a failed send is retried; FAILED
 * after MAX_ATTEMPTS). Orders go MATCHED -> FILLED once every fill of theirs is CONFIRMED, or
 * MATCH_FAILED when one failed for good.
 */
import { getExternalWorkflowHandle, proxyActivities, sleep } from '@temporalio/workflow';
import type { SettlementActivities } from '../activities/settlement.activities';
import { marketWorkflowId } from '../src/matching/market-ids';
import type { SettlementGroup, SettlementInput } from '../src/matching/payloads';
import { CHAIN_CALL, CHAIN_WAIT, DB_STEP } from './activity-presets';
import { removeOrdersSignal } from './definitions';

const db = proxyActivities<SettlementActivities>(DB_STEP);
const chain = proxyActivities<SettlementActivities>(CHAIN_CALL);
const waits = proxyActivities<SettlementActivities>(CHAIN_WAIT);

export const MAX_SETTLEMENT_ATTEMPTS = 5;

export interface SettlementResult {
  status: 'CONFIRMED' | 'FAILED';
  txHash: string;
  attempts: number;
}

type Input = SettlementInput & { retryDelayMs?: number };

export async function settlementWorkflow(input: Input): Promise<SettlementResult> {
  if (!input.groups) return settleGroup(input, { batchId: input.batchId, tradeIds: input.tradeIds });
  const results = await Promise.all(input.groups.map((group) => settleGroup(input, group)));
  const failed = results.find((r) => r.status === 'FAILED');
  return {
    status: failed ? 'FAILED' : 'CONFIRMED',
    txHash: results.map((r) => r.txHash).filter(Boolean).join(','),
    attempts: Math.max(0, ...results.map((r) => r.attempts)),
  };
}

/** One `matchOrders` call (one taker order and its makers), retried as one. */
async function settleGroup(input: Input, { batchId, tradeIds }: SettlementGroup): Promise<SettlementResult> {
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
    await sleep(Math.min(60_000, (input.retryDelayMs ?? 2_000) * 2 ** (attempt - 1)));
  }
  await db.markFills({ tradeIds, status: 'FAILED', txHash });
  const { resting } = await db.finishOrders({ tradeIds, failed: true });
  if (resting.length > 0) {
    // Orders still on the book leave it through their market's workflow (the book's only writer).
    await getExternalWorkflowHandle(marketWorkflowId(input.market)).signal(removeOrdersSignal, { hashes: resting, reason: 'SETTLEMENT_FAILED' });
  }
  return { status: 'FAILED', txHash, attempts: attempt };
}
