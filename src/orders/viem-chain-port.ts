import { encodeFunctionData, parseAbi, type PublicClient } from 'viem';
import { collateralAbi, conditionalTokensAbi, exchangeAbi } from '../chain/generated';
import type { OrderChainPort } from './chain-port';

const EIP1271_ABI = parseAbi(['function isValidSignature(bytes32 hash, bytes signature) view returns (bytes4)']);
const EIP1271_MAGIC = '0x1626ba7e';

/**
 * A plain-viem OrderChainPort against the project's own contracts, for when the chain module's
 * ChainPort is not at hand (prefer `orderChainPortFromChainPorts`). `clientFor` returns the
 * public client of a chain id.
 */
export function createViemOrderChainPort(clientFor: (chainId: number) => PublicClient): OrderChainPort {
  return {
    async collateralFunds({ chainId, collateral, exchange, wallet }) {
      const client = clientFor(chainId);
      const [balance, allowance] = await Promise.all([
        client.readContract({ address: collateral, abi: collateralAbi, functionName: 'balanceOf', args: [wallet] }),
        client.readContract({ address: collateral, abi: collateralAbi, functionName: 'allowance', args: [wallet, exchange] }),
      ]);
      return { balance, allowance };
    },
    async tokenFunds({ chainId, conditionalTokens, exchange, wallet, tokenId }) {
      const client = clientFor(chainId);
      const [balance, approved] = await Promise.all([
        client.readContract({ address: conditionalTokens, abi: conditionalTokensAbi, functionName: 'balanceOf', args: [wallet, tokenId] }),
        client.readContract({ address: conditionalTokens, abi: conditionalTokensAbi, functionName: 'isApprovedForAll', args: [wallet, exchange] }),
      ]);
      return { balance, approved };
    },
    async makerNonce({ chainId, exchange, wallet }) {
      return clientFor(chainId).readContract({ address: exchange, abi: exchangeAbi, functionName: 'nonces', args: [wallet] });
    },
    async isValidContractSignature({ chainId, wallet, digest, signature }) {
      try {
        const magic = await clientFor(chainId).readContract({ address: wallet, abi: EIP1271_ABI, functionName: 'isValidSignature', args: [digest, signature] });
        return magic.toLowerCase() === EIP1271_MAGIC;
      } catch {
        return false;
      }
    },
    cancelOrderCalldata({ order }) {
      return encodeFunctionData({ abi: exchangeAbi, functionName: 'cancelOrder', args: [order] });
    },
  };
}
