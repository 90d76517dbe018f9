import path from 'node:path';

describe('secp256k1 native binding', () => {
  it('when loading secp256k1, then the native libsecp256k1 addon (not the elliptic fallback) is used', () => {
    // secp256k1/index.js falls back to pure-JS elliptic when the addon fails; bindings.js does not.
    const bindings = require('secp256k1/bindings') as { ecdsaRecover: unknown };
    expect(typeof bindings.ecdsaRecover).toBe('function');
    const main = require.resolve('secp256k1');
    expect(require(main)).toBe(require(path.join(path.dirname(main), 'bindings.js')));
  });
});

describe('keccak native binding', () => {
  it('when hashing, then the native Keccak state is used and agrees with viem keccak256', async () => {
    const { NATIVE_KECCAK, keccak256Bytes } = await import('../../src/signing/keccak');
    const { keccak256 } = await import('viem');
    expect(NATIVE_KECCAK).toBe(true);
    for (const length of [0, 1, 64, 135, 136, 137, 416, 1000]) {
      const data = Buffer.alloc(length, length % 251);
      expect(Buffer.from(keccak256Bytes(data)).toString('hex')).toBe(keccak256(data).slice(2));
    }
  });
});
