/**
 * POST /v1/orders/{hash}/cancel-onchain (decisions section 5): the unsigned `cancelOrder(Order)`
 * call for the maker's own wallet to send. The service never sends it.
 */
import { encodeFunctionData, type Address, type Hex } from 'viem';
import type { SignedOrder } from '../signing';
import { exchangeAbi } from './generated';

export function cancelOrderCalldata(exchange: Address, chainId: number, order: SignedOrder): { to: Address; data: Hex; chain_id: number } {
  return { to: exchange, data: encodeFunctionData({ abi: exchangeAbi, functionName: 'cancelOrder', args: [order] }), chain_id: chainId };
}

/** `incrementNonce()` calldata: voids all of the sender's orders signed with the current nonce. */
export function incrementNonceCalldata(exchange: Address, chainId: number): { to: Address; data: Hex; chain_id: number } {
  return { to: exchange, data: encodeFunctionData({ abi: exchangeAbi, functionName: 'incrementNonce' }), chain_id: chainId };
}
