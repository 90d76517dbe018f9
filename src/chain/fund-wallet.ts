/**
 * Developer faucet, local chains only: mints collateral to a wallet (the collateral's open
 * `mint`) and, given the wallet's key, approves the exchange for collateral (ERC-20) and outcome
 * tokens (ERC-1155 setApprovalForAll), so the wallet can trade at once.
 */
import { createWalletClient, maxUint256, type Address, type Hex } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { chainCall } from './chain-errors';
import { transportOf, type ChainContext } from './chain-context';
import { collateralAbi, conditionalTokensAbi } from './generated';
import { waitForReceipt } from './wait-for-receipt';

export interface FundWalletOptions {
  /** The wallet's private key: when given, the exchange approvals are set from the wallet. */
  privateKey?: Hex;
  /** Also send native coin for gas (from the operator), e.g. 1 BNB = 10n ** 18n. */
  nativeAmount?: bigint;
}

/** `port` is a ChainPort (anything carrying its `context`). */
export async function fundWallet(port: { context: ChainContext }, address: Address, amount: bigint, options: FundWalletOptions = {}): Promise<void> {
  const ctx = port.context;
  const { collateral, conditionalTokens, exchange } = ctx.config.addresses;
  const confirm = async (action: string, send: () => Promise<Hex>): Promise<void> => {
    const receipt = await waitForReceipt(ctx, await chainCall(action, send), 0);
    if (receipt.status !== 'success') throw new Error(`${action} reverted`);
  };
  if (options.nativeAmount && options.nativeAmount > 0n) {
    await confirm('fund native', () => ctx.operatorSender.send((nonce) => ctx.walletClient.sendTransaction({ to: address, value: options.nativeAmount, nonce })));
  }
  if (amount > 0n) {
    await confirm('mint collateral', () => ctx.operatorSender.send((nonce) => ctx.walletClient.writeContract({
      address: collateral, abi: collateralAbi, functionName: 'mint', args: [address, amount], nonce,
    })));
  }
  if (!options.privateKey) return;
  const account = privateKeyToAccount(options.privateKey);
  if (account.address.toLowerCase() !== address.toLowerCase()) throw new RangeError('privateKey is not the key of address');
  const wallet = createWalletClient({ chain: ctx.chain, transport: transportOf(ctx.config), account });
  await confirm('approve collateral', () => wallet.writeContract({
    address: collateral, abi: collateralAbi, functionName: 'approve', args: [exchange, maxUint256],
  }));
  await confirm('approve outcome tokens', () => wallet.writeContract({
    address: conditionalTokens, abi: conditionalTokensAbi, functionName: 'setApprovalForAll', args: [exchange, true],
  }));
}
