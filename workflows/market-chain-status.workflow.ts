/**
 * Carries a market's status to the chain on the worker, the only process holding the operator key
 * (`chain-status-{chain_id}-{condition_id}`): RESOLVED reports the payouts to the conditional
 * tokens (so redeemPositions pays) and closes an AMM market's pool; PAUSED and CLOSED pause the
 * pool, OPEN unpauses it. Each pass reads the market's status when it runs, so passes converge on
 * the latest one; a status change during a pass signals another pass instead of racing it.
 */
import { defineSignal, proxyActivities, setHandler, type ActivityOptions } from '@temporalio/workflow';
import type { MarketChainStatusActivities } from '../activities/market-chain-status.activities';
import type { MarketChainStatusInput } from '../src/markets/market-chain-status-input';

export type { MarketChainStatusInput };

/** Operator transactions and their receipts; retried until they land (each checks what is done first). */
const CHAIN_TX: ActivityOptions = {
  startToCloseTimeout: '5m',
  retry: { initialInterval: '1s', backoffCoefficient: 2, maximumInterval: '30s', nonRetryableErrorTypes: ['ChainStatusRefused'] },
};

const chain = proxyActivities<MarketChainStatusActivities>(CHAIN_TX);

/** "The market's status changed again": one more pass after the current one. */
export const syncChainStatusSignal = defineSignal('syncChainStatus');

export interface MarketChainStatusResult {
  /** What each pass did, in order (e.g. "RESOLVED: payouts reported, pool closed"). */
  passes: string[];
}

export async function marketChainStatusWorkflow(input: MarketChainStatusInput): Promise<MarketChainStatusResult> {
  let pending = true;
  setHandler(syncChainStatusSignal, () => {
    pending = true;
  });
  const passes: string[] = [];
  while (pending) {
    pending = false;
    passes.push(await chain.applyMarketChainStatus({ chain_id: input.chain_id, condition_id: input.condition_id }));
  }
  return { passes };
}
