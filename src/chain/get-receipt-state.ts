/**
 * Non-blocking receipt check for a settlement poller: pending until included, then the status and
 * how many blocks confirm it (the including block counts as 0 confirmations, matching
 * CHAIN_CONFIRMATIONS = "blocks on top").
 */
import { TransactionReceiptNotFoundError, type Hex } from 'viem';
import { chainCall } from './chain-errors';
import type { ChainContext } from './chain-context';

export type ReceiptState =
  | { status: 'pending' }
  | { status: 'success' | 'reverted'; blockNumber: bigint; confirmations: number };

export function getReceiptState(ctx: ChainContext, hash: Hex): Promise<ReceiptState> {
  return chainCall('getReceiptState', async () => {
    try {
      const [receipt, head] = await Promise.all([
        ctx.publicClient.getTransactionReceipt({ hash }),
        ctx.publicClient.getBlockNumber({ cacheTime: 0 }),
      ]);
      return { status: receipt.status, blockNumber: receipt.blockNumber, confirmations: Number(head - receipt.blockNumber) };
    } catch (error) {
      if (error instanceof TransactionReceiptNotFoundError) return { status: 'pending' };
      throw error;
    }
  });
}
