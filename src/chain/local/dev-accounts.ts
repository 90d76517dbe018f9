/**
 * Hardhat's well-known development accounts (mnemonic "test test ... junk", path m/44'/60'/0'/0/i).
 * Public knowledge: never fund them on a real chain. Account 0 is the embedded chain's operator
 * (deployer, exchange admin/operator, oracle and fee recipient).
 */
import { mnemonicToAccount } from 'viem/accounts';
import type { Address, Hex } from 'viem';

export const DEV_MNEMONIC = 'test test test test test test test test test test test junk';
export const DEV_ACCOUNT_COUNT = 10;
/** 10,000 native coins each, as Hardhat does. */
export const DEV_NATIVE_BALANCE = 10_000n * 10n ** 18n;

export interface DevAccount {
  address: Address;
  privateKey: Hex;
}

let cached: DevAccount[] | undefined;

export function devAccounts(): DevAccount[] {
  cached ??= Array.from({ length: DEV_ACCOUNT_COUNT }, (_, addressIndex) => {
    const account = mnemonicToAccount(DEV_MNEMONIC, { addressIndex });
    const key = account.getHdKey().privateKey;
    if (!key) throw new Error('HD key without private key');
    return { address: account.address, privateKey: `0x${Buffer.from(key).toString('hex')}` as Hex };
  });
  return cached;
}
