import { isAddress } from 'viem';

/**
 * A wallet from a credential: 0x-prefixed 20-byte hex, either all lower-case (or upper-case) or
 * EIP-55 checksummed. Returned lower-case, the one form stored and compared everywhere.
 */
export function normalizeWallet(value: unknown): string | undefined {
  if (typeof value !== 'string' || !/^0x[0-9a-fA-F]{40}$/.test(value)) return undefined;
  if (!isAddress(value, { strict: true })) return undefined;
  return value.toLowerCase();
}
