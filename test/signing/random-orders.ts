/** Deterministic random orders and keys for the signing tests and the benchmark. */
import { randomBytes } from 'node:crypto';
import { privateKeyToAddress } from 'viem/accounts';
import type { Hex } from 'viem';
import type { Order } from '../../src/signing';

/** xorshift-style generator: a seed gives the same orders on every run. */
export function seededRandom(seed: number): (bytes: number) => Buffer {
  let state = BigInt(seed) | 1n;
  return (bytes) => {
    const out = Buffer.alloc(bytes);
    for (let i = 0; i < bytes; i++) {
      state ^= (state << 13n) & 0xffffffffffffffffn;
      state ^= state >> 7n;
      state ^= (state << 17n) & 0xffffffffffffffffn;
      out[i] = Number(state & 0xffn);
    }
    return out;
  };
}

const big = (b: Buffer): bigint => BigInt(`0x${b.toString('hex')}`);

export function randomKey(rand: (n: number) => Buffer = randomBytes): Hex {
  // Any 32 bytes below the curve order is a key; the chance of hitting >= n is ~2^-128.
  return `0x${rand(32).toString('hex')}`;
}

export function randomOrder(rand: (n: number) => Buffer, maker: Hex): Order {
  const address = (): Hex => `0x${rand(20).toString('hex')}`;
  return {
    salt: big(rand(32)),
    maker,
    signer: maker,
    taker: rand(1)[0] % 2 === 0 ? '0x0000000000000000000000000000000000000000' : address(),
    tokenId: big(rand(32)),
    makerAmount: big(rand(12)),
    takerAmount: big(rand(12)),
    expiration: big(rand(4)),
    nonce: big(rand(2)),
    feeRateBps: BigInt(rand(1)[0]),
    side: rand(1)[0] % 2,
    signatureType: 0,
  };
}

export function makerOf(key: Hex): Hex {
  return privateKeyToAddress(key);
}
