/**
 * Starts the chain's watcher (`chain-watcher-{chain_id}`) if it is not running: the worker calls
 * it at every start, so a watcher that ended (terminated by an operator) comes back with the next
 * worker. One per chain: a second start finds the running one and keeps it, unless that one runs on
 * another task queue. A namespace holds one deployment (market workflows are keyed by condition
 * alone too), so a watcher on another queue was left by a deployment that moved queues, and no
 * worker of ours would ever run it: the starting worker ends it and starts its own.
 */
import { WorkflowExecutionAlreadyStartedError, WorkflowNotFoundError, type Client } from '@temporalio/client';
import type { ChainWatcherInput, chainWatcherWorkflow } from '../../workflows/chain-watcher.workflow';

export function chainWatcherWorkflowId(chainId: number): string {
  return `chain-watcher-${chainId}`;
}

export async function startChainWatcher(client: Client, taskQueue: string, input: ChainWatcherInput): Promise<void> {
  const workflowId = chainWatcherWorkflowId(input.chainId);
  const start = async (): Promise<void> => {
    try {
      await client.workflow.start<typeof chainWatcherWorkflow>('chainWatcherWorkflow', {
        workflowId, taskQueue, args: [input], workflowIdConflictPolicy: 'USE_EXISTING',
      });
    } catch (error) {
      if (!(error instanceof WorkflowExecutionAlreadyStartedError)) throw error;
    }
  };
  await start();
  const running = await client.workflow.getHandle(workflowId).describe();
  if (running.status.name !== 'RUNNING' || running.taskQueue === taskQueue) return;
  try {
    await client.workflow.getHandle(workflowId, running.runId).terminate(`taken over by the worker of task queue ${taskQueue}`);
  } catch (error) {
    // Workers starting together all find the old one; the first ends it and the rest find it ended.
    if (!(error instanceof WorkflowNotFoundError)) throw error;
  }
  await start();
}
