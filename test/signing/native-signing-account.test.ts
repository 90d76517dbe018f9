import { privateKeyToAccount, generatePrivateKey } from 'viem/accounts';
import { parseTransaction, recoverTransactionAddress, type TransactionSerializable } from 'viem';
import { nativeSigningAccount } from '../../src/signing/native-signing-account';

/** Transactions of every type viem signs for a local account, with calldata of varying length. */
function transactionsFor(to: `0x${string}`, n: number): TransactionSerializable[] {
  const out: TransactionSerializable[] = [];
  for (let i = 0; i < n; i++) {
    const data = `0x${(i * 7919).toString(16).padStart(8, '0').repeat(1 + (i % 40))}` as `0x${string}`;
    const base = { chainId: 56, to, data, nonce: i, gas: 400_000n + BigInt(i), value: BigInt(i % 3) };
    if (i % 3 === 0) out.push({ ...base, type: 'eip1559', maxFeePerGas: 3_000_000_000n + BigInt(i), maxPriorityFeePerGas: 1n });
    else if (i % 3 === 1) out.push({ ...base, type: 'legacy', gasPrice: 5_000_000_000n });
    else out.push({ ...base, type: 'eip2930', gasPrice: 5_000_000_000n, accessList: [{ address: to, storageKeys: [`0x${'0'.repeat(63)}${i % 10}`] }] });
  }
  return out;
}

describe('nativeSigningAccount', () => {
  it('when signing transactions of every type, then each is byte-identical to viem\'s and recovers to the account', async () => {
    const key = generatePrivateKey();
    const viemAccount = privateKeyToAccount(key);
    const native = nativeSigningAccount(key);
    expect(native.address).toBe(viemAccount.address);
    // 300 signatures: about one in 128 has an r or s with a leading zero byte, which RLP trims.
    for (const tx of transactionsFor(viemAccount.address, 300)) {
      const signed = await native.signTransaction(tx);
      expect(signed).toBe(await viemAccount.signTransaction(tx));
      expect(await recoverTransactionAddress({ serializedTransaction: signed as `0x02${string}` })).toBe(viemAccount.address);
      expect(parseTransaction(signed).nonce).toBe(tx.nonce);
    }
  });

  it('when signing messages or typed data, then it signs as viem\'s account does', async () => {
    const key = generatePrivateKey();
    const native = nativeSigningAccount(key);
    const viemAccount = privateKeyToAccount(key);
    expect(await native.signMessage({ message: 'hello' })).toBe(await viemAccount.signMessage({ message: 'hello' }));
  });
});
