/**
 * A private-key account whose transactions are signed by native libsecp256k1 and native keccak,
 * not viem's pure-JS @noble/curves: ~0.13 ms per match transaction against ~0.65 ms (measured here,
 * 1.4 KB of calldata). The operator signs every settlement's transactions in the worker process,
 * whose one event loop also runs the market steps' activities, so the JS signing held those steps
 * back (docs/benchmarks.md, "Numbers behind the design"). Everything else is viem's account as it is.
 *
 * The signature is the one viem makes (RFC 6979 deterministic nonce, low-s), so the serialized
 * transaction is byte-identical (test/signing/native-signing-account.test.ts).
 */
import secp256k1 from 'secp256k1';
import { bytesToHex, hexToBytes, serializeTransaction, type Hex } from 'viem';
import { privateKeyToAccount, type PrivateKeyAccount } from 'viem/accounts';
import { keccak256Bytes } from './keccak';

export function nativeSigningAccount(privateKey: Hex): PrivateKeyAccount {
  const account = privateKeyToAccount(privateKey);
  const key = hexToBytes(privateKey);
  const signTransaction: PrivateKeyAccount['signTransaction'] = async (transaction, { serializer = serializeTransaction } = {}) => {
    // As viem: a blob transaction is signed without its sidecars (EIP-4844's network wrapper).
    const signable = transaction.type === 'eip4844' ? { ...transaction, sidecars: false } : transaction;
    const digest = keccak256Bytes(hexToBytes(await serializer(signable)));
    const { signature, recid } = secp256k1.ecdsaSign(digest, key);
    const r = bytesToHex(signature.subarray(0, 32));
    const s = bytesToHex(signature.subarray(32, 64));
    return (await serializer(transaction, { r, s, v: recid === 1 ? 28n : 27n, yParity: recid })) as Awaited<ReturnType<PrivateKeyAccount['signTransaction']>>;
  };
  return { ...account, signTransaction };
}
