/**
 * Starts the per-order watch (`onchain-cancel-{order_hash}`). The service no longer starts it (the
 * chain watcher covers every open order); its workflow stays registered so watches started before
 * finish (an hour at most), and its tests start it here. Idempotent.
 */
import { WorkflowExecutionAlreadyStartedError, type Client } from '@temporalio/client';
import { SearchAttributeType, TypedSearchAttributes, defineSearchAttributeKey } from '@temporalio/common';
import { marketKeyOf, onchainCancelWorkflowId } from '../matching/market-ids';
import type { OnchainCancelInput, onchainCancelWorkflow } from '../../workflows/onchain-cancel.workflow';

const OrderHashKey = defineSearchAttributeKey('OrderHash', SearchAttributeType.KEYWORD);
const WalletKey = defineSearchAttributeKey('Wallet', SearchAttributeType.KEYWORD);
const MarketIdKey = defineSearchAttributeKey('MarketId', SearchAttributeType.KEYWORD);

export async function startOnchainCancelWatch(
  client: Client,
  taskQueue: string,
  order: { order_hash: string; wallet: string; chain_id: number; condition_id: string },
  options: Omit<OnchainCancelInput, 'orderHash'> = {},
): Promise<void> {
  try {
    await client.workflow.start<typeof onchainCancelWorkflow>('onchainCancelWorkflow', {
      workflowId: onchainCancelWorkflowId(order.order_hash),
      taskQueue,
      args: [{ ...options, orderHash: order.order_hash.toLowerCase() }],
      workflowIdConflictPolicy: 'USE_EXISTING',
      typedSearchAttributes: new TypedSearchAttributes([
        { key: OrderHashKey, value: order.order_hash.toLowerCase() },
        { key: WalletKey, value: order.wallet.toLowerCase() },
        { key: MarketIdKey, value: marketKeyOf(order) },
      ]),
    });
  } catch (error) {
    if (!(error instanceof WorkflowExecutionAlreadyStartedError)) throw error;
  }
}
