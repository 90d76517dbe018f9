/**
 * Recovers the address that signed a 32-byte digest, with the native libsecp256k1 binding.
 *
 * Accepted exactly as the exchange contract's `_recover` accepts them: 65 bytes r||s||v, v in
 * {27, 28} or {0, 1}, s in the lower half of the curve order (the high-s twin of a signature is
 * refused, so a signature cannot be re-encoded into a second valid form). Anything else gives
 * null. viem's `recoverTypedDataAddress` also accepts high-s; that is the one deliberate difference.
 */
import secp256k1 from 'secp256k1';
import type { Address, Hex } from 'viem';
import { keccak256Bytes } from './keccak';

const HALF_N = Buffer.from('7fffffffffffffffffffffffffffffff5d576e7357a4501ddfe92f46681b20a0', 'hex');
const ZERO = Buffer.alloc(32);
const HEX_SIGNATURE = /^0x[0-9a-fA-F]{130}$/;

/** Splits a signature; null when it is not one the contract would accept. */
export function parseSignature(signature: Hex | string): { compact: Uint8Array; recovery: number } | null {
  if (!HEX_SIGNATURE.test(signature)) return null;
  const bytes = Buffer.from(signature.slice(2), 'hex');
  const v = bytes[64] < 27 ? bytes[64] + 27 : bytes[64];
  if (v !== 27 && v !== 28) return null;
  // Big-endian byte order compares like the numbers: cheaper than a BigInt on the hot path.
  const s = bytes.subarray(32, 64);
  if (s.equals(ZERO) || Buffer.compare(s, HALF_N) > 0) return null;
  return { compact: bytes.subarray(0, 64), recovery: v - 27 };
}

export function recoverSigner(digest: Uint8Array, signature: Hex | string): Address | null {
  const parsed = parseSignature(signature);
  if (!parsed) return null;
  let publicKey: Uint8Array;
  try {
    // Throws for r = 0, r or s >= n, or a point that does not exist: the contract's ecrecover gives 0.
    publicKey = secp256k1.ecdsaRecover(parsed.compact, parsed.recovery, digest, false);
  } catch {
    return null;
  }
  const hash = keccak256Bytes(publicKey.subarray(1));
  return `0x${Buffer.from(hash.subarray(12)).toString('hex')}`;
}
