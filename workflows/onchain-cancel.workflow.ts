/**
 * Watches one order after its owner asked for cancel-onchain calldata (`onchain-cancel-{hash}`):
 * polls the chain for the order's cancel or a nonce bump and, when seen, takes the order off the
 * book through the market's workflow. Ends when that happened, when the order ended otherwise, or
 * at the deadline; a check that fails (the chain or the store down past its retries) is tried
 * again at the next poll.
 */
import { ActivityFailure, getExternalWorkflowHandle, log, proxyActivities, sleep } from '@temporalio/workflow';
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
    let seen: Awaited<ReturnType<typeof chain.checkOrderOnChain>>;
    try {
      seen = await chain.checkOrderOnChain({ orderHash: input.orderHash });
    } catch (error) {
      // A node or store that does not answer for a while (the check's own retries spent) does not
      // end the watch: the order could still be cancelled on chain, so the next poll asks again.
      if (!(error instanceof ActivityFailure)) throw error;
      log.warn('on-chain cancel check failed; watching on', { orderHash: input.orderHash, error: error.cause?.message ?? error.message });
      await sleep(poll);
      continue;
    }
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
