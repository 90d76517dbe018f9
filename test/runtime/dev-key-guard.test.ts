import { assertNoDevKeyOffEmbeddedChain } from '../../src/runtime/chain-from-config';
import { mnemonicToAccount } from 'viem/accounts';
import { WELL_KNOWN_DEV_ADDRESSES, wellKnownDevKeyIndex } from '../../src/runtime/well-known-keys';
import { ConfigError } from '../../src/config';

/** Hardhat's default accounts #0 and #19 (public, from the "test ... junk" mnemonic). */
const HARDHAT_0 = '0xac0974bec39a17e36ba4a6b4d238ff944bacb478cbed5efcae784d7bf4f2ff80';
const HARDHAT_19 = '0xdf57089febbacf7ba0bc227dafbffa9fc08a93fdc68e1e42411a14efcf23656e';
const OWN_KEY = `0x${'1f'.repeat(32)}` as const;

describe('a well-known development key off the embedded chain', () => {
  test('when Hardhat\'s key runs a chain npm start did not start, then the start stops with a ConfigError naming it', () => {
    let error: unknown;
    try {
      assertNoDevKeyOffEmbeddedChain({ OPERATOR_PRIVATE_KEY: HARDHAT_0, LOCAL_DEV_CHAIN: false, CHAIN_ID: 56 });
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(ConfigError);
    expect((error as ConfigError).message).toMatch(/OPERATOR_PRIVATE_KEY is Hardhat's well-known development key #0.*only on the embedded chain/);
    expect(() => assertNoDevKeyOffEmbeddedChain({ OPERATOR_PRIVATE_KEY: HARDHAT_19, LOCAL_DEV_CHAIN: false, CHAIN_ID: 97 })).toThrow(/key #19/);
  });

  test('when it runs the embedded chain, or another key runs any chain, then the start goes on', () => {
    expect(() => assertNoDevKeyOffEmbeddedChain({ OPERATOR_PRIVATE_KEY: HARDHAT_0, LOCAL_DEV_CHAIN: true, CHAIN_ID: 56 })).not.toThrow();
    expect(() => assertNoDevKeyOffEmbeddedChain({ OPERATOR_PRIVATE_KEY: OWN_KEY, LOCAL_DEV_CHAIN: false, CHAIN_ID: 56 })).not.toThrow();
    expect(wellKnownDevKeyIndex(OWN_KEY)).toBeNull();
  });

  test('when the listed addresses are derived again from Hardhat\'s public mnemonic, then they are the same 20', () => {
    const derived = WELL_KNOWN_DEV_ADDRESSES.map((_, addressIndex) => mnemonicToAccount('test test test test test test test test test test test junk', { addressIndex }).address.toLowerCase());
    expect(derived).toEqual(WELL_KNOWN_DEV_ADDRESSES);
  });
});
