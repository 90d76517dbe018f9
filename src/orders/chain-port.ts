import type { Address, Hex } from 'viem';
import type { SignedOrder } from '../signing';

/**
 * What order entry needs from the chain (decisions section 8). Small on purpose: the chain
 * module's real reads plug in behind it (src/orders/viem-chain-port.ts is the default, over viem
 * and the generated ABIs); unit tests pass a fake.
 */
export interface OrderChainPort {
  /** ERC-20 collateral balance of `wallet`. */
  collateralBalance(args: { chainId: number; collateral: Address; wallet: Address }): Promise<bigint>;
  /** ERC-20 allowance of `wallet` to the exchange. */
  collateralAllowance(args: { chainId: number; collateral: Address; wallet: Address; exchange: Address }): Promise<bigint>;
  /** ERC-1155 balance of `wallet` for `tokenId`. */
  tokenBalance(args: { chainId: number; conditionalTokens: Address; wallet: Address; tokenId: bigint }): Promise<bigint>;
  /** ERC-1155 `isApprovedForAll(wallet, exchange)`. */
  tokenApproved(args: { chainId: number; conditionalTokens: Address; wallet: Address; exchange: Address }): Promise<boolean>;
  /** The exchange's current `nonces(wallet)`: only orders signed with it are valid. */
  makerNonce(args: { chainId: number; exchange: Address; wallet: Address }): Promise<bigint>;
  /** EIP-1271 check of a contract wallet's signature over `digest` (signature_type 1). */
  isValidContractSignature?(args: { chainId: number; wallet: Address; digest: Hex; signature: Hex }): Promise<boolean>;
  /** Unsigned `cancelOrder(Order)` calldata for the exchange. */
  cancelOrderCalldata(order: SignedOrder): Hex;
}
