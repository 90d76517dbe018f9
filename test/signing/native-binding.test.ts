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
