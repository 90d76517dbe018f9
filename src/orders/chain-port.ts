import type { Address, Hex } from 'viem';
import type { SignedOrder } from '../signing';

/**
 * What order entry needs from the chain (decisions section 8). Small on purpose: the chain
 * module's ChainPort plugs in through `orderChainPortFromChainPorts` (chain-port.adapter.ts);
 * `createViemOrderChainPort` is a plain-viem fallback; unit tests pass a fake.
 */
export interface OrderChainPort {
  /** ERC-20 collateral balance of `wallet` and its allowance to the exchange (read together). */
  collateralFunds(args: { chainId: number; collateral: Address; exchange: Address; wallet: Address }): Promise<{ balance: bigint; allowance: bigint }>;
  /** ERC-1155 balance of `tokenId` and `isApprovedForAll(wallet, exchange)` (read together). */
  tokenFunds(args: { chainId: number; conditionalTokens: Address; exchange: Address; wallet: Address; tokenId: bigint }): Promise<{ balance: bigint; approved: boolean }>;
  /** The exchange's current `nonces(wallet)`: only orders signed with it are valid. */
  makerNonce(args: { chainId: number; exchange: Address; wallet: Address }): Promise<bigint>;
  /** EIP-1271 check of a contract wallet's signature over `digest` (signature_type 1). */
  isValidContractSignature?(args: { chainId: number; wallet: Address; digest: Hex; signature: Hex }): Promise<boolean>;
  /** Unsigned `cancelOrder(Order)` calldata for the exchange. */
  cancelOrderCalldata(args: { chainId: number; exchange: Address; order: SignedOrder }): Hex;
}
