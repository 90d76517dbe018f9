/** Small views of the exchange: a maker's nonce, an order's on-chain status, its hash. */
import type { Address, Hex } from 'viem';
import type { SignedOrder } from '../signing';
import { AppError } from '../errors';
import { chainCall, toChainError } from './chain-errors';
import type { ChainContext } from './chain-context';
import { exchangeAbi } from './generated';

export function makerNonce(ctx: ChainContext, maker: Address): Promise<bigint> {
  return chainCall('makerNonce', () =>
    ctx.publicClient.readContract({ address: ctx.config.addresses.exchange, abi: exchangeAbi, functionName: 'nonces', args: [maker] }),
  );
}

export interface OnChainOrderStatus {
  /** Fully filled or cancelled: the order can no longer be matched. */
  filledOrCancelled: boolean;
  cancelled: boolean;
  /**
   * Maker-amount units still fillable: 0 once filled or cancelled, null when the exchange has
   * never seen the order (all of its makerAmount is left).
   */
  remaining: bigint | null;
}

export function orderStatus(ctx: ChainContext, orderHash: Hex): Promise<OnChainOrderStatus> {
  const address = ctx.config.addresses.exchange;
  return chainCall('orderStatus', async () => {
    const [[filledOrCancelled, remaining], cancelled] = await Promise.all([
      ctx.publicClient.readContract({ address, abi: exchangeAbi, functionName: 'orderStatus', args: [orderHash] }),
      ctx.publicClient.readContract({ address, abi: exchangeAbi, functionName: 'cancelled', args: [orderHash] }),
    ]);
    const untouched = !filledOrCancelled && remaining === 0n;
    return { filledOrCancelled, cancelled, remaining: untouched ? null : filledOrCancelled ? 0n : remaining };
  });
}

/** The exchange's own EIP-712 hash of an order (tests compare src/signing against it). */
export function contractOrderHash(ctx: ChainContext, order: SignedOrder): Promise<Hex> {
  return chainCall('hashOrder', () =>
    ctx.publicClient.readContract({ address: ctx.config.addresses.exchange, abi: exchangeAbi, functionName: 'hashOrder', args: [order] }),
  );
}

const ERC1271_MAGIC = '0x1626ba7e';
const erc1271Abi = [{
  type: 'function', name: 'isValidSignature', stateMutability: 'view',
  inputs: [{ name: 'digest', type: 'bytes32' }, { name: 'signature', type: 'bytes' }],
  outputs: [{ name: '', type: 'bytes4' }],
}] as const;

/** EIP-1271: asks the contract wallet whether it signed the digest (false when it reverts or is no contract). */
export async function isValidContractSignature(ctx: ChainContext, wallet: Address, digest: Hex, signature: Hex): Promise<boolean> {
  const code = await chainCall('getCode', () => ctx.publicClient.getCode({ address: wallet }));
  if (!code || code === '0x') return false;
  try {
    const magic = await ctx.publicClient.readContract({ address: wallet, abi: erc1271Abi, functionName: 'isValidSignature', args: [digest, signature] });
    return magic === ERC1271_MAGIC;
  } catch (error) {
    // Only an unreachable node is an error; a wallet that reverts or answers nonsense did not sign.
    const mapped = toChainError(error, 'isValidSignature');
    if (mapped instanceof AppError) throw mapped;
    return false;
  }
}
