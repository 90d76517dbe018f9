import type { ChainPort } from '../chain';
import type { OrderChainPort } from './chain-port';

/**
 * The chain module's ChainPort (one per chain id, bound to that chain's deployment) as the port
 * order entry uses. Addresses come from the ChainPort's own config: markets copy them from the same
 * chain registry, so they agree.
 */
export function orderChainPortFromChainPorts(portFor: (chainId: number) => ChainPort): OrderChainPort {
  return {
    async collateralFunds({ chainId, wallet }) {
      const b = await portFor(chainId).readWalletBalances(wallet);
      return { balance: b.collateralBalance, allowance: b.collateralAllowance };
    },
    async tokenFunds({ chainId, wallet, tokenId }) {
      const b = await portFor(chainId).readWalletBalances(wallet, [tokenId]);
      return { balance: b.tokenBalances[tokenId.toString()] ?? 0n, approved: b.tokensApprovedForAll };
    },
    makerNonce: ({ chainId, wallet }) => portFor(chainId).makerNonce(wallet),
    isValidContractSignature: ({ chainId, wallet, digest, signature }) => portFor(chainId).isValidContractSignature(wallet, digest, signature),
    cancelOrderCalldata: ({ chainId, order }) => portFor(chainId).cancelOrderCalldata(order).data,
  };
}
