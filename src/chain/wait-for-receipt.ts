/**
 * Waits until a transaction is included and `confirmations` more blocks exist on top of it.
 * A reverted transaction resolves with status 'reverted' (it is final: resending the same match
 * fails the same way); an unreachable node or a timeout is SERVICE_DEGRADED.
 */
import type { Hex } from 'viem';
import { chainCall } from './chain-errors';
import type { ChainContext } from './chain-context';

export interface SettlementReceipt {
  transactionHash: Hex;
  status: 'success' | 'reverted';
  blockNumber: bigint;
  gasUsed: bigint;
}

export function waitForReceipt(ctx: ChainContext, hash: Hex, confirmations = ctx.config.confirmations, timeoutMs = 120_000): Promise<SettlementReceipt> {
  return chainCall('waitForReceipt', async () => {
    // viem counts the including block as the first confirmation.
    const receipt = await ctx.publicClient.waitForTransactionReceipt({ hash, confirmations: Math.max(1, confirmations + 1), timeout: timeoutMs });
    return { transactionHash: receipt.transactionHash, status: receipt.status, blockNumber: receipt.blockNumber, gasUsed: receipt.gasUsed };
  });
}
