/**
 * Sets up an AMM market's pool on the worker, the only process holding the operator key
 * (`amm-setup-{chain_id}-{condition_id}`): deploy the pool (once: its address is recorded on the
 * market before anything else), fund it with the initial liquidity (skipped when already funded),
 * then open the market and start its pool watcher. The market stays SEEDING until the open step;
 * each step is idempotent, so a worker restart or a retried activity resumes without a second pool
 * or a second funding.
 */
import { WorkflowExecutionAlreadyStartedError } from '@temporalio/common';
import { patched, proxyActivities, startChild, type ActivityOptions } from '@temporalio/workflow';
import type { AmmSetupActivities } from '../activities/amm-setup.activities';
import type { AmmMarketSetupInput } from '../src/amm/amm-setup-input';
import { poolWatcherWorkflowId } from '../src/amm/pool-watcher-id';
import { DB_STEP } from './activity-presets';
import { POOL_WATCHER_AFTER_SETUP } from './patches';
import { poolWatcherWorkflow } from './pool-watcher.workflow';

export type { AmmMarketSetupInput };

/** A pool transaction and its receipt; retried until it lands (each step checks what is done first). */
const POOL_TX: ActivityOptions = {
  startToCloseTimeout: '5m',
  retry: { initialInterval: '1s', backoffCoefficient: 2, maximumInterval: '30s' },
};

const chain = proxyActivities<AmmSetupActivities>(POOL_TX);
const db = proxyActivities<AmmSetupActivities>(DB_STEP);

export interface AmmMarketSetupResult {
  pool_address: string;
  status: 'OPEN' | 'UNCHANGED';
}

export async function ammMarketSetupWorkflow(input: AmmMarketSetupInput): Promise<AmmMarketSetupResult> {
  const market = { chain_id: input.chain_id, condition_id: input.condition_id };
  const pool = await chain.deployAmmPool({ ...market, fee_rate_bps: input.fee_rate_bps });
  await chain.fundAmmPool({ ...market, pool_address: pool, liquidity: input.liquidity, mint: input.mint });
  const opened = await db.openAmmMarket({ ...market, actor: input.actor });
  if (patched(POOL_WATCHER_AFTER_SETUP)) await startPoolWatcher(market, pool);
  return { pool_address: pool, status: opened ? 'OPEN' : 'UNCHANGED' };
}

/** The market's pool watcher, left running after this workflow ends; one already running is kept. */
async function startPoolWatcher(market: { chain_id: number; condition_id: string }, pool: string): Promise<void> {
  try {
    await startChild(poolWatcherWorkflow, {
      workflowId: poolWatcherWorkflowId(market.chain_id, market.condition_id),
      args: [{ ...market, pool_address: pool.toLowerCase() }],
      parentClosePolicy: 'ABANDON',
    });
  } catch (error) {
    if (!(error instanceof WorkflowExecutionAlreadyStartedError)) throw error;
  }
}
