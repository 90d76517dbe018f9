/**
 * Developer faucet for local chains: mints collateral to a wallet and, given its key, approves
 * the exchange for collateral and outcome tokens.
 *
 *   npm run faucet -- <address> [amount=1000] [--key 0x<private key>] [--native 1]
 *
 * Finds the chain like the service does: CHAIN_RPC_URL + OPERATOR_PRIVATE_KEY + *_ADDRESS from the
 * environment, else the embedded chain's <DATA_DIR>/chain/deployment.json with dev account 0.
 * Refuses chains whose collateral has no open mint (any real deployment).
 */
import fs from 'node:fs';
import path from 'node:path';
import { getAddress, type Address, type Hex } from 'viem';
import { createChainPort, devAccounts, type ChainPortConfig, type LocalDeployment } from '../src/chain';
import { collateralAbi } from '../src/chain/generated';
import { formatCanonical, parseUnitsStrict } from '../src/money';

function option(name: string): string | undefined {
  const at = process.argv.indexOf(name);
  return at >= 0 ? process.argv[at + 1] : undefined;
}

function chainConfig(): ChainPortConfig {
  const env = process.env;
  if (env.CHAIN_RPC_URL && env.EXCHANGE_ADDRESS && env.COLLATERAL_ADDRESS && env.CONDITIONAL_TOKENS_ADDRESS) {
    return {
      rpcUrl: env.CHAIN_RPC_URL,
      chainId: Number(env.CHAIN_ID ?? 56),
      operatorKey: (env.OPERATOR_PRIVATE_KEY ?? devAccounts()[0].privateKey) as Hex,
      addresses: {
        exchange: getAddress(env.EXCHANGE_ADDRESS),
        collateral: getAddress(env.COLLATERAL_ADDRESS),
        conditionalTokens: getAddress(env.CONDITIONAL_TOKENS_ADDRESS),
      },
      confirmations: 0,
      pollingIntervalMs: 100,
    };
  }
  const file = path.join(env.DATA_DIR ?? './data', 'chain', 'deployment.json');
  if (!fs.existsSync(file)) throw new Error(`no chain configured: set CHAIN_RPC_URL and the contract addresses, or start the embedded chain (${file})`);
  const deployment = JSON.parse(fs.readFileSync(file, 'utf8')) as LocalDeployment;
  return {
    rpcUrl: deployment.rpcUrl, chainId: deployment.chainId, operatorKey: devAccounts()[0].privateKey,
    addresses: deployment.addresses, confirmations: 0, pollingIntervalMs: 100,
  };
}

async function main(): Promise<void> {
  const [target, amountArg] = process.argv.slice(2).filter((arg, i, all) => !arg.startsWith('--') && !all[i - 1]?.startsWith('--'));
  if (!target || !/^0x[0-9a-fA-F]{40}$/.test(target)) {
    throw new Error('usage: npm run faucet -- <address> [amount=1000] [--key 0x..] [--native 1]');
  }
  const address: Address = getAddress(target);
  const port = createChainPort(chainConfig());
  const openMint = await port.context.publicClient.readContract({ address: port.addresses.collateral, abi: collateralAbi, functionName: 'openMint' });
  if (!openMint) throw new Error('this collateral has no open mint: the faucet works on local chains only');
  const amount = parseUnitsStrict(amountArg ?? '1000', 18);
  const native = option('--native');
  await port.fundWallet(address, amount, {
    privateKey: option('--key') as Hex | undefined,
    nativeAmount: native ? parseUnitsStrict(native, 18) : undefined,
  });
  const balances = await port.readWalletBalances(address);
  console.log(JSON.stringify({
    address,
    collateral: formatCanonical(balances.collateralBalance, 18),
    exchange_allowance_set: balances.collateralAllowance > 0n,
    exchange_approved_for_tokens: balances.tokensApprovedForAll,
  }));
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
