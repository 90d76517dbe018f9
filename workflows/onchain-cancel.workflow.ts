/**
 * Watches one order after its owner asked for cancel-onchain calldata (`onchain-cancel-{hash}`):
 * polls the chain for the order's cancel or a nonce bump and, when seen, takes the order off the
 * book through the market's workflow. Ends when that happened, when the order ended otherwise, or
 * at the deadline.
 */
import { getExternalWorkflowHandle, proxyActivities, sleep } from '@temporalio/workflow';
import type { SettlementActivities } from '../activities/settlement.activities';
import { marketWorkflowId } from '../src/matching/market-ids';
import { CHAIN_CALL } from './activity-presets';
import { removeOrdersSignal } from './definitions';

const chain = proxyActivities<SettlementActivities>(CHAIN_CALL);

export interface OnchainCancelInput {
  orderHash: string;
  /** Stop watching after this long; default one hour. */
  watchSeconds?: number;
  pollSeconds?: number;
}

export interface OnchainCancelResult {
  outcome: 'CANCELLED_ONCHAIN' | 'NONCE_BUMPED' | 'ORDER_ENDED' | 'TIMED_OUT';
}

export async function onchainCancelWorkflow(input: OnchainCancelInput): Promise<OnchainCancelResult> {
  const deadline = Date.now() + (input.watchSeconds ?? 3_600) * 1000;
  const poll = (input.pollSeconds ?? 5) * 1000;
  while (Date.now() < deadline) {
    const seen = await chain.checkOrderOnChain({ orderHash: input.orderHash });
    if (seen.ended) return { outcome: 'ORDER_ENDED' };
    if (seen.cancelled || seen.nonceBumped) {
      await getExternalWorkflowHandle(marketWorkflowId(seen.market)).signal(removeOrdersSignal, {
        hashes: [input.orderHash], reason: seen.cancelled ? 'ONCHAIN_CANCEL' : 'NONCE_BUMP', at: Date.now(),
      });
      return { outcome: seen.cancelled ? 'CANCELLED_ONCHAIN' : 'NONCE_BUMPED' };
    }
    await sleep(poll);
  }
  return { outcome: 'TIMED_OUT' };
}
