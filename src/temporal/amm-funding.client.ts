import { WorkflowExecutionAlreadyStartedError, type Client } from '@temporalio/client';
import { ammFundingWorkflowId, type AmmFunder } from '../amm/amm-funding-input';
import { AppError } from '../errors';

/** Runs a market's pool funding on the worker and waits for it; one at a time per market. */
export function createAmmFunder(client: Client, taskQueue: string): AmmFunder {
  return {
    async fund(input) {
      let handle;
      try {
        handle = await client.workflow.start('ammFundingWorkflow', {
          workflowId: ammFundingWorkflowId(input.chain_id, input.condition_id), taskQueue, args: [input], workflowIdConflictPolicy: 'FAIL',
        });
      } catch (error) {
        if (error instanceof WorkflowExecutionAlreadyStartedError) {
          throw new AppError('VALIDATION_ERROR', 'A funding of this market is in progress; retry when it has ended');
        }
        throw error;
      }
      await handle.result();
    },
  };
}
