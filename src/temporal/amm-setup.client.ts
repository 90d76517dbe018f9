import { WorkflowExecutionAlreadyStartedError, type Client } from '@temporalio/client';
import type { AmmSetupStarter } from '../markets/create-amm-market';
import { ammMarketSetupWorkflowId } from '../amm/amm-setup-input';

/** Starts a market's pool setup on the worker; a second start of the same market is a no-op. */
export function createAmmSetupStarter(client: Client, taskQueue: string): AmmSetupStarter {
  return {
    async start(input) {
      try {
        await client.workflow.start('ammMarketSetupWorkflow', {
          workflowId: ammMarketSetupWorkflowId(input.chain_id, input.condition_id), taskQueue, args: [input],
        });
      } catch (error) {
        if (!(error instanceof WorkflowExecutionAlreadyStartedError)) throw error;
      }
    },
  };
}
