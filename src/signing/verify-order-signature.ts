/**
 * Checks an order's EOA signature off chain, with the same rules as the exchange contract: the
 * signer must be the maker and must be the address recovered from the EIP-712 digest.
 * EIP-1271 (contract wallet) signatures can only be checked on chain: see the chain port's
 * `isValidContractSignature`.
 */
import type { Address, Hex } from 'viem';
import { orderDigest, toHex32 } from './hash-order';
import { SIGNATURE_TYPE, type Order, type OrderDomain } from './order';
import { recoverSigner } from './recover-signer';

export type SignatureCheck =
  | { ok: true; orderHash: Hex; signer: Address }
  | { ok: false; orderHash: Hex; reason: 'SIGNER_NOT_MAKER' | 'MALFORMED_SIGNATURE' | 'WRONG_SIGNER' | 'NEEDS_CHAIN'; recovered?: Address };

export function verifyOrderSignature(order: Order, signature: Hex | string, domain: OrderDomain): SignatureCheck {
  const digest = orderDigest(order, domain);
  const orderHash = toHex32(digest);
  const signer = order.signer.toLowerCase();
  if (signer !== order.maker.toLowerCase()) return { ok: false, orderHash, reason: 'SIGNER_NOT_MAKER' };
  if (order.signatureType === SIGNATURE_TYPE.EIP1271) return { ok: false, orderHash, reason: 'NEEDS_CHAIN' };
  if (order.signatureType !== SIGNATURE_TYPE.EOA) return { ok: false, orderHash, reason: 'MALFORMED_SIGNATURE' };
  const recovered = recoverSigner(digest, signature);
  if (!recovered) return { ok: false, orderHash, reason: 'MALFORMED_SIGNATURE' };
  if (recovered !== signer) return { ok: false, orderHash, reason: 'WRONG_SIGNER', recovered };
  return { ok: true, orderHash, signer: order.signer };
}
