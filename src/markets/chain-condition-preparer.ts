import type { Hex } from 'viem';
import { AppError } from '../errors';
import { outcomeTokenIds, type ChainPort } from '../chain';
import { collateralAbi, conditionalTokensAbi } from '../chain/generated';
import type { ChainInfo } from './chains';
import type { ConditionPreparer } from './condition-preparer';

/**
 * The real ConditionPreparer: prepares the condition on the chain's conditional-tokens contract
 * with the operator as oracle (and registers it with the exchange), through the chain port.
 */
export function createChainConditionPreparer(port: ChainPort): ConditionPreparer {
  return {
    async prepareBinaryCondition(questionId) {
      const prepared = await port.prepareCondition(questionId as Hex);
      return {
        conditionId: prepared.conditionId.toLowerCase(),
        yesTokenId: prepared.yesTokenId.toString(),
        noTokenId: prepared.noTokenId.toString(),
      };
    },
    async positionIdsOf(conditionId) {
      const slots = await port.context.publicClient.readContract({
        address: port.addresses.conditionalTokens,
        abi: conditionalTokensAbi,
        functionName: 'getOutcomeSlotCount',
        args: [conditionId as Hex],
      });
      if (slots !== 2n) throw new AppError('VALIDATION_ERROR', 'condition_id is not a prepared binary condition on this chain');
      const { yes, no } = outcomeTokenIds(port.addresses.collateral, conditionId as Hex);
      return { yesTokenId: yes.toString(), noTokenId: no.toString() };
    },
  };
}

/** The ChainInfo of a chain port's deployment, with the collateral's decimals read from the chain. */
export async function chainInfoOf(port: ChainPort): Promise<ChainInfo> {
  const decimals = await port.context.publicClient.readContract({
    address: port.addresses.collateral,
    abi: collateralAbi,
    functionName: 'decimals',
  });
  return {
    chain_id: port.chainId,
    collateral_token: port.addresses.collateral.toLowerCase(),
    ctf_exchange_address: port.addresses.exchange.toLowerCase(),
    conditional_tokens_address: port.addresses.conditionalTokens.toLowerCase(),
    collateral_decimals: Number(decimals),
  };
}
