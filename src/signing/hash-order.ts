/**
 * Hot-path EIP-712 hashing of an Order: the 13 words (typehash + 12 fields) are written straight
 * into one buffer and hashed with keccak, instead of viem's generic `hashTypedData`, which parses
 * the type description on every call, and with native keccak (keccak.ts). test/signing/hash-order.test.ts proves both agree, and that
 * they agree with the exchange contract's `hashOrder` view.
 */
import { keccak256, toBytes, type Hex } from 'viem';
import { keccak256Bytes } from './keccak';
import { DOMAIN_NAME, DOMAIN_VERSION, ORDER_TYPE_STRING, type Order, type OrderDomain } from './order';

const ORDER_TYPEHASH = keccak256(toBytes(ORDER_TYPE_STRING), 'bytes');
const DOMAIN_TYPEHASH = keccak256(
  toBytes('EIP712Domain(string name,string version,uint256 chainId,address verifyingContract)'),
  'bytes',
);
const UINT256_MAX = (1n << 256n) - 1n;
const ADDRESS = /^0x[0-9a-fA-F]{40}$/;

const SMALL = 0xffffffffffffn; // 48 bits: written as a number, skipping the hex string

function writeUint(buffer: Buffer, word: number, value: bigint | number): void {
  const v = BigInt(value);
  if (v < 0n || v > UINT256_MAX) throw new RangeError(`value out of uint256 range: ${v}`);
  // The buffer is zero-filled, so only the significant bytes are written.
  if (v <= SMALL) buffer.writeUIntBE(Number(v), word * 32 + 26, 6);
  else buffer.write(v.toString(16).padStart(64, '0'), word * 32, 'hex');
}

function writeUint8(buffer: Buffer, word: number, value: number): void {
  if (!Number.isInteger(value) || value < 0 || value > 255) throw new RangeError(`value out of uint8 range: ${value}`);
  buffer[word * 32 + 31] = value;
}

function writeAddress(buffer: Buffer, word: number, address: string): void {
  if (!ADDRESS.test(address)) throw new RangeError(`not an address: ${address}`);
  buffer.write(address.slice(2), word * 32 + 12, 'hex');
}

const domainCache = new Map<string, Uint8Array>();

export function domainSeparator(domain: OrderDomain): Uint8Array {
  const key = `${domain.chainId}:${domain.verifyingContract.toLowerCase()}`;
  let separator = domainCache.get(key);
  if (!separator) {
    const buffer = Buffer.alloc(5 * 32);
    buffer.set(DOMAIN_TYPEHASH, 0);
    buffer.set(keccak256(toBytes(DOMAIN_NAME), 'bytes'), 32);
    buffer.set(keccak256(toBytes(DOMAIN_VERSION), 'bytes'), 64);
    writeUint(buffer, 3, BigInt(domain.chainId));
    writeAddress(buffer, 4, domain.verifyingContract);
    separator = keccak256(buffer, 'bytes');
    domainCache.set(key, separator);
  }
  return separator;
}

export function orderStructHash(order: Order): Uint8Array {
  const buffer = Buffer.alloc(13 * 32);
  buffer.set(ORDER_TYPEHASH, 0);
  writeUint(buffer, 1, order.salt);
  writeAddress(buffer, 2, order.maker);
  writeAddress(buffer, 3, order.signer);
  writeAddress(buffer, 4, order.taker);
  writeUint(buffer, 5, order.tokenId);
  writeUint(buffer, 6, order.makerAmount);
  writeUint(buffer, 7, order.takerAmount);
  writeUint(buffer, 8, order.expiration);
  writeUint(buffer, 9, order.nonce);
  writeUint(buffer, 10, order.feeRateBps);
  writeUint8(buffer, 11, order.side);
  writeUint8(buffer, 12, order.signatureType);
  return keccak256Bytes(buffer);
}

/** The EIP-712 digest as bytes (what is signed); `hashOrder` gives it as hex (the order hash). */
export function orderDigest(order: Order, domain: OrderDomain): Uint8Array {
  const buffer = Buffer.alloc(66);
  buffer[0] = 0x19;
  buffer[1] = 0x01;
  buffer.set(domainSeparator(domain), 2);
  buffer.set(orderStructHash(order), 34);
  return keccak256Bytes(buffer);
}

export function hashOrder(order: Order, domain: OrderDomain): Hex {
  return toHex32(orderDigest(order, domain));
}

export function toHex32(bytes: Uint8Array): Hex {
  return `0x${(Buffer.isBuffer(bytes) ? bytes : Buffer.from(bytes)).toString('hex')}`;
}
