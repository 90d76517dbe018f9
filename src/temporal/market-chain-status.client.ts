import type { Client } from '@temporalio/client';
import { marketChainStatusWorkflowId, type MarketChainSync } from '../markets/market-chain-status-input';

/**
 * Wakes a market's chain-status workflow on the worker: starts it, or, while it runs, signals it
 * to make one more pass (so two status changes never send competing pool transactions).
 */
export function createMarketChainSync(client: Client, taskQueue: string): MarketChainSync {
  return {
    async sync(market) {
      const input = { chain_id: market.chain_id, condition_id: market.condition_id.toLowerCase() };
      await client.workflow.signalWithStart('marketChainStatusWorkflow', {
        workflowId: marketChainStatusWorkflowId(input.chain_id, input.condition_id), taskQueue, args: [input],
        signal: 'syncChainStatus', signalArgs: [],
      });
    },
  };
}
