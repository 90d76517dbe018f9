/**
 * What the /trade routes read from the chain: the wallet's exchange nonce, outcome-token balances
 * (one `balanceOfBatch` per call) and a condition's payouts. Built on the chain port's clients.
 */
import type { Address, Hex } from 'viem';
import { chainCall } from '../chain/chain-errors';
import type { ChainPort } from '../chain';
import { conditionalTokensAbi } from '../chain/generated';

export interface ConditionPayouts {
  /** [NO, YES] numerators; both 0 until the oracle reports. */
  numerators: [bigint, bigint];
  /** 0 until resolved. */
  denominator: bigint;
}

export interface TradeChain {
  nonceOf(wallet: Address): Promise<bigint>;
  /** `balanceOf(wallet, id)` for every id, in order, in one call. */
  balancesOf(conditionalTokens: Address, wallet: Address, tokenIds: readonly bigint[]): Promise<bigint[]>;
  payoutsOf(conditionalTokens: Address, conditionId: Hex): Promise<ConditionPayouts>;
}

export function tradeChainOf(port: ChainPort): TradeChain {
  const client = port.context.publicClient;
  return {
    nonceOf: (wallet) => port.makerNonce(wallet),
    balancesOf: async (conditionalTokens, wallet, tokenIds) => {
      if (tokenIds.length === 0) return [];
      const out = await chainCall('balanceOfBatch', () =>
        client.readContract({ address: conditionalTokens, abi: conditionalTokensAbi, functionName: 'balanceOfBatch', args: [tokenIds.map(() => wallet), [...tokenIds]] }),
      );
      return [...out];
    },
    payoutsOf: (conditionalTokens, conditionId) =>
      chainCall('payouts', async () => {
        const read = (functionName: 'payoutDenominator') => client.readContract({ address: conditionalTokens, abi: conditionalTokensAbi, functionName, args: [conditionId] });
        const numerator = (i: bigint) => client.readContract({ address: conditionalTokens, abi: conditionalTokensAbi, functionName: 'payoutNumerators', args: [conditionId, i] });
        const denominator = await read('payoutDenominator');
        if (denominator === 0n) return { numerators: [0n, 0n], denominator };
        const [no, yes] = await Promise.all([numerator(0n), numerator(1n)]);
        return { numerators: [no, yes], denominator };
      }),
  };
}
