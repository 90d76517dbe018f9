import { recoverTypedDataAddress, type Hex } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import {
  orderDigest, orderTypedData, recoverSigner, signOrder, verifyOrderSignature, type Order,
} from '../../src/signing';
import { makerOf, randomKey, randomOrder, seededRandom } from './random-orders';

const DOMAIN = { chainId: 56, verifyingContract: '0x5FbDB2315678afecb367f032d93F642f64180aa3' } as const;
const N = 0xfffffffffffffffffffffffffffffffebaaedce6af48a03bbfd25e8cd0364141n;

function withV(signature: Hex, v: number): Hex {
  return `${signature.slice(0, 130)}${v.toString(16).padStart(2, '0')}` as Hex;
}

/** The malleable twin: s -> n - s and the recovery bit flipped. */
function highS(signature: Hex): Hex {
  const s = BigInt(`0x${signature.slice(66, 130)}`);
  const v = parseInt(signature.slice(130), 16);
  return `${signature.slice(0, 66)}${(N - s).toString(16).padStart(64, '0')}${(v === 27 ? 28 : 27).toString(16)}` as Hex;
}

describe('recoverSigner (native secp256k1)', () => {
  it('when recovering 2000 random orders signed by random keys, then it equals viem recoverTypedDataAddress', async () => {
    const rand = seededRandom(7);
    for (let i = 0; i < 2000; i++) {
      const key = randomKey(rand);
      const order = randomOrder(rand, makerOf(key));
      const { signature } = signOrder({ order, domain: DOMAIN }, key);
      const viemAddress = await recoverTypedDataAddress({ ...orderTypedData(order, DOMAIN), signature });
      const native = recoverSigner(orderDigest(order, DOMAIN), signature);
      expect(native).toBe(viemAddress.toLowerCase());
      expect(native).toBe(order.maker.toLowerCase());
      // A signature of another order recovers someone else, for both implementations.
      if (i % 100 === 0) {
        const other: Order = { ...order, nonce: order.nonce + 1n };
        const wrong = recoverSigner(orderDigest(other, DOMAIN), signature);
        expect(wrong).toBe((await recoverTypedDataAddress({ ...orderTypedData(other, DOMAIN), signature })).toLowerCase());
        expect(wrong).not.toBe(order.maker.toLowerCase());
      }
    }
  });

  it('when signOrder signs, then the signature equals viem signTypedData (RFC 6979, low-s, v=27/28)', async () => {
    const rand = seededRandom(99);
    for (let i = 0; i < 50; i++) {
      const key = randomKey(rand);
      const order = randomOrder(rand, makerOf(key));
      expect(signOrder({ order, domain: DOMAIN }, key).signature).toBe(
        await privateKeyToAccount(key).signTypedData(orderTypedData(order, DOMAIN)),
      );
    }
  });

  describe('encodings (same acceptance as the exchange contract)', () => {
    const key = randomKey(seededRandom(3));
    const order = randomOrder(seededRandom(4), makerOf(key));
    const digest = orderDigest(order, DOMAIN);
    const { signature } = signOrder({ order, domain: DOMAIN }, key);
    const v = parseInt(signature.slice(130), 16);
    const maker = order.maker.toLowerCase();

    it('when v is 0/1 instead of 27/28, then it recovers the same signer (viem agrees)', async () => {
      expect(recoverSigner(digest, withV(signature, v - 27))).toBe(maker);
      const viemAddress = await recoverTypedDataAddress({ ...orderTypedData(order, DOMAIN), signature: withV(signature, v - 27) });
      expect(viemAddress.toLowerCase()).toBe(maker);
    });

    it('when v is anything else, then it is refused', () => {
      for (const bad of [2, 26, 29, 35, 36, 255]) expect(recoverSigner(digest, withV(signature, bad))).toBeNull();
    });

    it('when s is in the upper half (malleable twin), then it is refused though viem would accept it', async () => {
      const twin = highS(signature);
      expect(recoverSigner(digest, twin)).toBeNull();
      // Documented difference: viem recovers the same address from the twin; the contract refuses it.
      expect((await recoverTypedDataAddress({ ...orderTypedData(order, DOMAIN), signature: twin })).toLowerCase()).toBe(maker);
    });

    it('when the signature is malformed, then it is refused without throwing', () => {
      const zeros = `0x${'00'.repeat(64)}1b`;
      const rTooBig = `0x${N.toString(16)}${signature.slice(66)}`;
      for (const bad of ['', '0x', signature.slice(0, 130), `${signature}00`, `${signature.slice(0, 129)}zz`, zeros, rTooBig]) {
        expect(recoverSigner(digest, bad)).toBeNull();
      }
    });

    it('when verifying, then a wrong signer, a signer other than the maker and a contract signature are told apart', () => {
      expect(verifyOrderSignature(order, signature, DOMAIN)).toMatchObject({ ok: true });
      const otherKey = randomKey(seededRandom(5));
      const forged = signOrder({ order, domain: DOMAIN }, otherKey).signature;
      expect(verifyOrderSignature(order, forged, DOMAIN)).toMatchObject({ ok: false, reason: 'WRONG_SIGNER', recovered: makerOf(otherKey).toLowerCase() });
      expect(verifyOrderSignature({ ...order, signer: makerOf(otherKey) }, forged, DOMAIN)).toMatchObject({ ok: false, reason: 'SIGNER_NOT_MAKER' });
      expect(verifyOrderSignature({ ...order, signatureType: 1 }, signature, DOMAIN)).toMatchObject({ ok: false, reason: 'NEEDS_CHAIN' });
      expect(verifyOrderSignature(order, highS(signature), DOMAIN)).toMatchObject({ ok: false, reason: 'MALFORMED_SIGNATURE' });
    });
  });
});
