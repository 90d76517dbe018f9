/**
 * Starts the chain's watcher (`chain-watcher-{chain_id}`) if it is not running: the worker calls
 * it at every start, so a watcher that ended (terminated by an operator) comes back with the next
 * worker. One per chain: a second start finds the running one and keeps it.
 */
import { WorkflowExecutionAlreadyStartedError, type Client } from '@temporalio/client';
import type { ChainWatcherInput, chainWatcherWorkflow } from '../../workflows/chain-watcher.workflow';

export function chainWatcherWorkflowId(chainId: number): string {
  return `chain-watcher-${chainId}`;
}

export async function startChainWatcher(client: Client, taskQueue: string, input: ChainWatcherInput): Promise<void> {
  try {
    await client.workflow.start<typeof chainWatcherWorkflow>('chainWatcherWorkflow', {
      workflowId: chainWatcherWorkflowId(input.chainId),
      taskQueue,
      args: [input],
      workflowIdConflictPolicy: 'USE_EXISTING',
    });
  } catch (error) {
    if (!(error instanceof WorkflowExecutionAlreadyStartedError)) throw error;
  }
}
