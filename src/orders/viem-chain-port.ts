import { encodeFunctionData, parseAbi, type Address, type Hex, type PublicClient } from 'viem';
import { collateralAbi, conditionalTokensAbi, exchangeAbi } from '../chain/generated';
import type { SignedOrder } from '../signing';
import type { OrderChainPort } from './chain-port';

const EIP1271_ABI = parseAbi(['function isValidSignature(bytes32 hash, bytes signature) view returns (bytes4)']);
const EIP1271_MAGIC = '0x1626ba7e';

/**
 * The default OrderChainPort: plain viem reads against the project's own contracts. `clientFor`
 * returns the public client of a chain id (one chain today: 56).
 */
export function createViemOrderChainPort(clientFor: (chainId: number) => PublicClient): OrderChainPort {
  return {
    async collateralBalance({ chainId, collateral, wallet }) {
      return clientFor(chainId).readContract({ address: collateral, abi: collateralAbi, functionName: 'balanceOf', args: [wallet] });
    },
    async collateralAllowance({ chainId, collateral, wallet, exchange }) {
      return clientFor(chainId).readContract({ address: collateral, abi: collateralAbi, functionName: 'allowance', args: [wallet, exchange] });
    },
    async tokenBalance({ chainId, conditionalTokens, wallet, tokenId }) {
      return clientFor(chainId).readContract({
        address: conditionalTokens,
        abi: conditionalTokensAbi,
        functionName: 'balanceOf',
        args: [wallet, tokenId],
      });
    },
    async tokenApproved({ chainId, conditionalTokens, wallet, exchange }) {
      return clientFor(chainId).readContract({
        address: conditionalTokens,
        abi: conditionalTokensAbi,
        functionName: 'isApprovedForAll',
        args: [wallet, exchange],
      });
    },
    async makerNonce({ chainId, exchange, wallet }) {
      return clientFor(chainId).readContract({ address: exchange, abi: exchangeAbi, functionName: 'nonces', args: [wallet] });
    },
    async isValidContractSignature({ chainId, wallet, digest, signature }) {
      try {
        const magic = await clientFor(chainId).readContract({
          address: wallet,
          abi: EIP1271_ABI,
          functionName: 'isValidSignature',
          args: [digest, signature],
        });
        return magic.toLowerCase() === EIP1271_MAGIC;
      } catch {
        return false;
      }
    },
    cancelOrderCalldata(order: SignedOrder): Hex {
      return encodeFunctionData({ abi: exchangeAbi, functionName: 'cancelOrder', args: [order] });
    },
  };
}

export type { Address };
