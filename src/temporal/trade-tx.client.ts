/**
 * Starts the workflow of a saved transaction (`trade-tx-{chain_id}-{tx_hash}`), searchable by
 * `Wallet` (and by `MarketId` once its events name a market). Idempotent: a running or finished
 * workflow of the same id is left as it is.
 */
import { WorkflowExecutionAlreadyStartedError, type Client } from '@temporalio/client';
import { SearchAttributeType, TypedSearchAttributes, defineSearchAttributeKey } from '@temporalio/common';
import type { TradeTxInput, tradeTxWorkflow } from '../../workflows/trade-tx.workflow';

const WalletKey = defineSearchAttributeKey('Wallet', SearchAttributeType.KEYWORD);

export function tradeTxWorkflowId(chainId: number, txHash: string): string {
  return `trade-tx-${chainId}-${txHash.toLowerCase()}`;
}

export interface TradeTxStarter {
  start(input: TradeTxInput): Promise<void>;
}

export function createTradeTxStarter(client: Client, taskQueue: string): TradeTxStarter {
  return {
    async start(input) {
      try {
        await client.workflow.start<typeof tradeTxWorkflow>('tradeTxWorkflow', {
          workflowId: tradeTxWorkflowId(input.chain_id, input.tx_hash),
          taskQueue,
          args: [input],
          workflowIdConflictPolicy: 'USE_EXISTING',
          workflowIdReusePolicy: 'REJECT_DUPLICATE',
          typedSearchAttributes: new TypedSearchAttributes([{ key: WalletKey, value: input.wallet }]),
        });
      } catch (error) {
        if (!(error instanceof WorkflowExecutionAlreadyStartedError)) throw error;
      }
    },
  };
}
