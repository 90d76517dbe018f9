/**
 * Everything INSUFFICIENT_BALANCE (decisions section 8) needs about one wallet, read in one
 * JSON-RPC batch: collateral balance and allowance to the exchange, the balances of the given
 * outcome tokens, and whether the exchange may move them.
 */
import type { Address } from 'viem';
import { chainCall } from './chain-errors';
import type { ChainContext } from './chain-context';
import { collateralAbi, conditionalTokensAbi } from './generated';

export interface WalletBalances {
  collateralBalance: bigint;
  collateralAllowance: bigint;
  /** token id (decimal string) -> balance */
  tokenBalances: Record<string, bigint>;
  tokensApprovedForAll: boolean;
  blockNumber: bigint;
}

export function readWalletBalances(ctx: ChainContext, wallet: Address, tokenIds: readonly bigint[] = []): Promise<WalletBalances> {
  const { publicClient, config } = ctx;
  const { collateral, conditionalTokens, exchange } = config.addresses;
  return chainCall('readWalletBalances', async () => {
    const blockNumber = await publicClient.getBlockNumber({ cacheTime: 0 });
    // Pinned to one block so the numbers belong together.
    const at = { blockNumber };
    const [balance, allowance, tokens, approved] = await Promise.all([
      publicClient.readContract({ ...at, address: collateral, abi: collateralAbi, functionName: 'balanceOf', args: [wallet] }),
      publicClient.readContract({ ...at, address: collateral, abi: collateralAbi, functionName: 'allowance', args: [wallet, exchange] }),
      tokenIds.length === 0
        ? Promise.resolve([] as readonly bigint[])
        : publicClient.readContract({
            ...at, address: conditionalTokens, abi: conditionalTokensAbi, functionName: 'balanceOfBatch',
            args: [tokenIds.map(() => wallet), [...tokenIds]],
          }),
      publicClient.readContract({
        ...at, address: conditionalTokens, abi: conditionalTokensAbi, functionName: 'isApprovedForAll', args: [wallet, exchange],
      }),
    ]);
    const tokenBalances: Record<string, bigint> = {};
    tokenIds.forEach((id, i) => (tokenBalances[id.toString()] = tokens[i]));
    return { collateralBalance: balance, collateralAllowance: allowance, tokenBalances, tokensApprovedForAll: approved, blockNumber };
  });
}
