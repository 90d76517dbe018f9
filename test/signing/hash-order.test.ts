import { hashTypedData } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { hashOrder, orderTypedData, type Order } from '../../src/signing';
import { makerOf, randomKey, randomOrder, seededRandom } from './random-orders';

const KEY = '0xac0974bec39a17e36ba4a6b4d238ff944bacb478cbed5efcae784d7bf4f2ff80';
const MAKER = '0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266';
const DOMAIN = { chainId: 56, verifyingContract: '0x5FbDB2315678afecb367f032d93F642f64180aa3' } as const;

/** Golden vectors: fixed key, fixed orders; hashes and signatures recorded from viem 2.x. */
const GOLDEN: { order: Order; hash: string; signature: string }[] = [
  {
    order: {
      salt: 1n, maker: MAKER, signer: MAKER, taker: '0x0000000000000000000000000000000000000000', tokenId: 123456789n,
      makerAmount: 5_500_000_000_000_000_000n, takerAmount: 10_000_000_000_000_000_000n, expiration: 0n, nonce: 0n,
      feeRateBps: 0n, side: 0, signatureType: 0,
    },
    hash: '0x5f4f0ecffe772c1e951f3a8a093e8f78fe15550a299d0dd33ec1cdd5c370c109',
    signature:
      '0xa71bcf1a77cb22c3c5468412d1038cdc4acc9e273cb49cfb7e194a281914c34c6b41095f53f816175dd5f21d50e941e3a4f7871a6c942405e8d3a9ed597176ac1b',
  },
  {
    order: {
      salt: (1n << 255n) + 7n, maker: MAKER, signer: MAKER, taker: '0x70997970C51812dc3A010C7d01b50e0d17dc79C8',
      tokenId: (1n << 256n) - 1n, makerAmount: 333_333_333_333_333_333n, takerAmount: 109_999_999_999_999_999n,
      expiration: 1_900_000_000n, nonce: 3n, feeRateBps: 200n, side: 1, signatureType: 0,
    },
    hash: '0x8aa7f655c20ffec082eba087312d2b903f82230c3bc8ac7da95190810f0a3066',
    signature:
      '0x40e2e18cf8a8567fb37f1e08d6869092b373a102d7f4dd09af43601c9082ffd77b3b1ce5f94ec7164908f0d7199583c66454087e55846dc7643497f3c820abf71b',
  },
];

describe('hashOrder', () => {
  it.each(GOLDEN.map((g, i) => [i, g] as const))('when hashing golden order %i, then it equals the recorded viem hash', async (_i, golden) => {
    expect(hashOrder(golden.order, DOMAIN)).toBe(golden.hash);
    expect(hashTypedData(orderTypedData(golden.order, DOMAIN))).toBe(golden.hash);
    expect(await privateKeyToAccount(KEY).signTypedData(orderTypedData(golden.order, DOMAIN))).toBe(golden.signature);
  });

  it('when hashing 2000 random orders, then the hot path equals viem hashTypedData', () => {
    const rand = seededRandom(42);
    const maker = makerOf(randomKey(rand));
    for (let i = 0; i < 2000; i++) {
      const order = randomOrder(rand, maker);
      const domain = { chainId: 1 + (i % 100), verifyingContract: maker };
      expect(hashOrder(order, domain)).toBe(hashTypedData(orderTypedData(order, domain)));
    }
  });

  it('when any one field changes, then the hash changes', () => {
    const base = GOLDEN[1].order;
    const variants: Partial<Order>[] = [
      { salt: base.salt + 1n }, { taker: MAKER }, { tokenId: 1n }, { makerAmount: 1n }, { takerAmount: 1n },
      { expiration: 1n }, { nonce: 4n }, { feeRateBps: 201n }, { side: 0 }, { signatureType: 1 },
    ];
    for (const change of variants) expect(hashOrder({ ...base, ...change }, DOMAIN)).not.toBe(GOLDEN[1].hash);
    expect(hashOrder(base, { ...DOMAIN, chainId: 97 })).not.toBe(GOLDEN[1].hash);
  });

  it('when a field is out of its type range, then hashing throws instead of truncating', () => {
    const base = GOLDEN[0].order;
    expect(() => hashOrder({ ...base, salt: 1n << 256n }, DOMAIN)).toThrow(RangeError);
    expect(() => hashOrder({ ...base, makerAmount: -1n }, DOMAIN)).toThrow(RangeError);
    expect(() => hashOrder({ ...base, side: 256 }, DOMAIN)).toThrow(RangeError);
    expect(() => hashOrder({ ...base, maker: '0x1234' }, DOMAIN)).toThrow(RangeError);
  });
});
