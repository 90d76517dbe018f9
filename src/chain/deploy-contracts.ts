/**
 * Deploys collateral, conditional tokens and exchange from one wallet, in that order. On a fresh
 * chain with a fresh deployer the addresses depend only on the deployer and its nonces, so the
 * embedded chain gets the same addresses on every start.
 */
import { createPublicClient, createWalletClient, getAddress, type Address, type Hex } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import type { ChainAddresses } from './chain-config';
import { chainCall } from './chain-errors';
import { chainOf, transportOf } from './chain-context';
import {
  collateralAbi, collateralBytecode, conditionalTokensAbi, conditionalTokensBytecode, exchangeAbi, exchangeBytecode,
} from './generated';

export interface DeployOptions {
  rpcUrl: string;
  chainId: number;
  deployerKey: Hex;
  /** true only on local chains: anyone may mint collateral (decisions section 8). */
  openMint: boolean;
  feeRecipient?: Address;
  /** Use an existing 18-decimal ERC-20 (e.g. a stablecoin on BSC) instead of deploying Collateral. */
  existingCollateral?: Address;
  collateralName?: string;
  collateralSymbol?: string;
}

export async function deployContracts(options: DeployOptions): Promise<ChainAddresses & { blockNumber: bigint }> {
  const chain = chainOf(options.chainId, options.rpcUrl);
  const transport = transportOf({ rpcUrl: options.rpcUrl });
  const account = privateKeyToAccount(options.deployerKey);
  const wallet = createWalletClient({ chain, transport, account });
  const client = createPublicClient({ chain, transport, pollingInterval: 50 });

  const deploy = async (label: string, send: () => Promise<Hex>): Promise<{ address: Address; blockNumber: bigint }> => {
    const hash = await chainCall(`deploy ${label}`, send);
    const receipt = await chainCall(`deploy ${label}`, () => client.waitForTransactionReceipt({ hash }));
    if (receipt.status !== 'success' || !receipt.contractAddress) throw new Error(`deploying ${label} failed in ${hash}`);
    return { address: getAddress(receipt.contractAddress), blockNumber: receipt.blockNumber };
  };

  const collateral = options.existingCollateral
    ? { address: getAddress(options.existingCollateral), blockNumber: 0n }
    : await deploy('Collateral', () => wallet.deployContract({
        abi: collateralAbi, bytecode: collateralBytecode,
        args: [options.collateralName ?? 'Test USD', options.collateralSymbol ?? 'TUSD', options.openMint],
      }));
  const conditionalTokens = await deploy('ConditionalTokens', () => wallet.deployContract({
    abi: conditionalTokensAbi, bytecode: conditionalTokensBytecode,
  }));
  const exchange = await deploy('Exchange', () => wallet.deployContract({
    abi: exchangeAbi, bytecode: exchangeBytecode,
    args: [collateral.address, conditionalTokens.address, options.feeRecipient ?? account.address],
  }));
  return {
    collateral: collateral.address,
    conditionalTokens: conditionalTokens.address,
    exchange: exchange.address,
    blockNumber: exchange.blockNumber,
  };
}
