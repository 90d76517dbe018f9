/**
 * Adds the operator's liquidity to an AMM market's pool on the worker
 * (`amm-fund-{chain_id}-{condition_id}`): read the pool's shares and the recorded liquidity, add
 * the funding unless the shares already grew past that reading (a retry after the funding
 * landed), then record the new liquidity only if it still reads as before (a retry after the
 * record changes nothing).
 */
import { proxyActivities, type ActivityOptions } from '@temporalio/workflow';
import type { AmmFundingActivities } from '../activities/amm-funding.activities';
import type { AmmFundingInput } from '../src/amm/amm-funding-input';
import { DB_STEP } from './activity-presets';

export type { AmmFundingInput };

const POOL_TX: ActivityOptions = {
  startToCloseTimeout: '5m',
  retry: { initialInterval: '1s', backoffCoefficient: 2, maximumInterval: '30s', maximumAttempts: 5, nonRetryableErrorTypes: ['AmmFundingRefused'] },
};

const chain = proxyActivities<AmmFundingActivities>(POOL_TX);
const db = proxyActivities<AmmFundingActivities>(DB_STEP);

export async function ammFundingWorkflow(input: AmmFundingInput): Promise<{ liquidity: string }> {
  const market = { chain_id: input.chain_id, condition_id: input.condition_id };
  const before = await chain.readAmmFunding(market);
  await chain.addAmmFunding({ pool_address: before.pool_address, shares_before: before.shares, amount: input.amount, mint: input.mint });
  return db.recordAmmFunding({ ...market, liquidity_before: before.liquidity, amount: input.amount });
}
