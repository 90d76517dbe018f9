/**
 * Starts AMM markets' pool watchers (`pool-watcher-{chain_id}-{condition_id}`) that are not
 * running. The AMM setup workflow starts a market's watcher once its pool is open; the worker
 * ensures one for every OPEN AMM market at each start, so a watcher that ended (terminated by an
 * operator) comes back with the next worker. A running watcher is kept as it is.
 */
import { WorkflowExecutionAlreadyStartedError, type Client } from '@temporalio/client';
import type { Connection } from 'mongoose';
import { poolWatcherWorkflowId } from '../amm/pool-watcher-id';
import { createMarketModel } from '../db/models';
import type { PoolWatcherInput, poolWatcherWorkflow } from '../../workflows/pool-watcher.workflow';

export async function startPoolWatcher(client: Client, taskQueue: string, input: PoolWatcherInput): Promise<void> {
  try {
    await client.workflow.start<typeof poolWatcherWorkflow>('poolWatcherWorkflow', {
      workflowId: poolWatcherWorkflowId(input.chain_id, input.condition_id), taskQueue, args: [input], workflowIdConflictPolicy: 'USE_EXISTING',
    });
  } catch (error) {
    if (!(error instanceof WorkflowExecutionAlreadyStartedError)) throw error;
  }
}

/** One watcher per OPEN AMM market of the chain; answers how many markets it ensured. */
export async function ensurePoolWatchers(client: Client, taskQueue: string, db: Connection, chainId: number): Promise<number> {
  const markets = await createMarketModel(db)
    .find({ chain_id: chainId, kind: 'AMM', status: 'OPEN', 'amm.pool_address': { $type: 'string' } }, { condition_id: 1, amm: 1 })
    .lean()
    .exec();
  for (const m of markets) {
    await startPoolWatcher(client, taskQueue, { chain_id: chainId, condition_id: m.condition_id, pool_address: String(m.amm!.pool_address).toLowerCase() });
  }
  return markets.length;
}
