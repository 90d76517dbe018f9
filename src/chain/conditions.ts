/**
 * Market conditions, with the operator as oracle (decisions section 6): prepare a condition on
 * the conditional tokens and register its two positions with the exchange; later report the
 * winning outcome. Both are idempotent, so a retried activity does not fail on its own success.
 */
import { keccak256, toBytes, type Hex } from 'viem';
import { chainCall } from './chain-errors';
import type { ChainContext } from './chain-context';
import { conditionalTokensAbi, exchangeAbi } from './generated';
import { conditionIdOf, outcomeTokenIds } from './position-ids';
import { waitForReceipt } from './wait-for-receipt';

export interface PreparedCondition {
  questionId: Hex;
  conditionId: Hex;
  yesTokenId: bigint;
  noTokenId: bigint;
}

/** A question id from free text (e.g. the market's question plus a creation nonce). */
export function questionIdOf(text: string): Hex {
  return keccak256(toBytes(text));
}

async function send(ctx: ChainContext, action: string, write: (nonce: number) => Promise<Hex>): Promise<void> {
  const hash = await chainCall(action, () => ctx.operatorSender.send(write));
  const receipt = await waitForReceipt(ctx, hash, 0);
  if (receipt.status !== 'success') throw new Error(`${action} transaction ${hash} reverted`);
}

export async function prepareCondition(ctx: ChainContext, questionId: Hex): Promise<PreparedCondition> {
  const { conditionalTokens, exchange, collateral } = ctx.config.addresses;
  const conditionId = conditionIdOf(ctx.operator.address, questionId);
  const { yes, no } = outcomeTokenIds(collateral, conditionId);
  const slots = await chainCall('getOutcomeSlotCount', () =>
    ctx.publicClient.readContract({ address: conditionalTokens, abi: conditionalTokensAbi, functionName: 'getOutcomeSlotCount', args: [conditionId] }),
  );
  if (slots === 0n) {
    await send(ctx, 'prepareCondition', (nonce) => ctx.walletClient.writeContract({
      address: conditionalTokens, abi: conditionalTokensAbi, functionName: 'prepareCondition', args: [ctx.operator.address, questionId], nonce,
    }));
  }
  const [, registered] = await chainCall('registry', () =>
    ctx.publicClient.readContract({ address: exchange, abi: exchangeAbi, functionName: 'registry', args: [yes] }),
  );
  if (registered !== conditionId) {
    await send(ctx, 'registerCondition', (nonce) => ctx.walletClient.writeContract({
      address: exchange, abi: exchangeAbi, functionName: 'registerCondition', args: [conditionId], nonce,
    }));
  }
  return { questionId, conditionId, yesTokenId: yes, noTokenId: no };
}

/** Resolves the condition: the winning outcome (1 = YES, 0 = NO) pays 1 collateral per token. */
export async function reportPayouts(ctx: ChainContext, questionId: Hex, winningOutcome: 0 | 1): Promise<void> {
  const { conditionalTokens } = ctx.config.addresses;
  const conditionId = conditionIdOf(ctx.operator.address, questionId);
  const denominator = await chainCall('payoutDenominator', () =>
    ctx.publicClient.readContract({ address: conditionalTokens, abi: conditionalTokensAbi, functionName: 'payoutDenominator', args: [conditionId] }),
  );
  if (denominator > 0n) return;
  const payouts = winningOutcome === 1 ? [0n, 1n] : [1n, 0n];
  await send(ctx, 'reportPayouts', (nonce) => ctx.walletClient.writeContract({
    address: conditionalTokens, abi: conditionalTokensAbi, functionName: 'reportPayouts', args: [questionId, payouts], nonce,
  }));
}
