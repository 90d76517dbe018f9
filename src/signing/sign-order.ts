/**
 * Signs an order's EIP-712 digest with a raw private key (native libsecp256k1, RFC 6979
 * deterministic nonces, low-s), producing r||s||v with v = 27/28 as wallets do.
 * Equivalent to viem's `signTypedData` over `orderTypedData(order, domain)` (tested).
 */
import secp256k1 from 'secp256k1';
import type { Hex } from 'viem';
import { orderDigest } from './hash-order';
import type { Order, OrderDomain } from './order';

export function signDigest(digest: Uint8Array, privateKey: Hex): Hex {
  const key = Buffer.from(privateKey.slice(2), 'hex');
  const { signature, recid } = secp256k1.ecdsaSign(digest, key);
  return `0x${Buffer.from(signature).toString('hex')}${(recid + 27).toString(16)}`;
}

export interface SignedOrderResult {
  order: Order;
  domain: OrderDomain;
  signature: Hex;
  orderHash: Hex;
}

export function signOrder(built: { order: Order; domain: OrderDomain }, privateKey: Hex): SignedOrderResult {
  const digest = orderDigest(built.order, built.domain);
  return {
    order: built.order,
    domain: built.domain,
    signature: signDigest(digest, privateKey),
    orderHash: `0x${Buffer.from(digest).toString('hex')}`,
  };
}
