import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { createPublicClient, http, type Address } from 'viem';
import { deployContractsCommand } from '../../scripts/deploy-contracts';
import { startLocalChain, type LocalChain } from '../../src/chain';
import { exchangeAbi } from '../../src/chain/generated';
import { freePort } from '../../src/embedded/free-port';

describe('npm run deploy:contracts', () => {
  let chain: LocalChain;
  beforeAll(async () => {
    chain = await startLocalChain({ port: await freePort(), chainId: 56, blockIntervalMs: 0 });
  }, 60_000);
  afterAll(() => chain?.stop());

  it('when pointed at a chain with a funded key, then it deploys the contracts and prints their addresses as variables', async () => {
    const lines = await deployContractsCommand(['--rpc', chain.rpcUrl, '--open-mint'], { DEPLOYER_PRIVATE_KEY: chain.accounts[2].privateKey });
    const vars = Object.fromEntries(lines.filter((l) => !l.startsWith('#')).map((l) => l.split('=') as [string, string]));
    expect(Object.keys(vars)).toEqual(['CHAIN_ID', 'EXCHANGE_ADDRESS', 'COLLATERAL_ADDRESS', 'CONDITIONAL_TOKENS_ADDRESS']);
    expect(vars.CHAIN_ID).toBe('56');
    const client = createPublicClient({ transport: http(chain.rpcUrl) });
    for (const name of ['EXCHANGE_ADDRESS', 'COLLATERAL_ADDRESS', 'CONDITIONAL_TOKENS_ADDRESS']) {
      expect((await client.getCode({ address: vars[name] as Address }))?.length ?? 0).toBeGreaterThan(2);
    }
    // A new deployment, not the embedded chain's own: the exchange pays out in the collateral printed beside it.
    expect(vars.EXCHANGE_ADDRESS).not.toBe(chain.addresses.exchange);
    const collateral = await client.readContract({ address: vars.EXCHANGE_ADDRESS as Address, abi: exchangeAbi, functionName: 'collateral' });
    expect(collateral).toBe(vars.COLLATERAL_ADDRESS);
  }, 60_000);

  it('when the key or the URL is missing, then it says how to call it', async () => {
    await expect(deployContractsCommand(['--rpc', chain.rpcUrl], {})).rejects.toThrow(/usage: DEPLOYER_PRIVATE_KEY/);
    await expect(deployContractsCommand([], { DEPLOYER_PRIVATE_KEY: chain.accounts[2].privateKey })).rejects.toThrow(/--rpc <url>/);
  });

  it('when run as an npm script, then it runs this command', () => {
    const pkg = JSON.parse(readFileSync(join(__dirname, '..', '..', 'package.json'), 'utf8')) as { scripts: Record<string, string> };
    expect(pkg.scripts['deploy:contracts']).toBe('tsx scripts/deploy-contracts.ts');
  });
});
