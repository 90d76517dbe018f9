import * as edr from '@nomicfoundation/edr';

describe('EDR native binding', () => {
  it('when loading @nomicfoundation/edr, then the platform addon is present and creates a chain-56 provider', async () => {
    if (process.platform === 'linux' && process.arch === 'x64') {
      // The direct dependency that npm's install-script allow-list cannot drop.
      const addon = require('@nomicfoundation/edr-linux-x64-gnu') as { EdrContext?: unknown };
      expect(typeof addon.EdrContext).toBe('function');
    }
    expect(typeof edr.EdrContext).toBe('function');
    const { createEdrChain } = await import('../../src/chain/local/edr-provider');
    const chain = await createEdrChain({ chainId: 56, accounts: [], nativeBalance: 0n });
    expect(await chain.request({ id: 7, method: 'eth_chainId' })).toEqual({ jsonrpc: '2.0', id: 7, result: '0x38' });
  });
});
