/**
 * Deploys the exchange's contracts (collateral, conditional tokens, exchange) to a chain and prints
 * their addresses as the service's variables, ready for .env:
 *
 *   DEPLOYER_PRIVATE_KEY=0x... npm run deploy:contracts -- --rpc <url> [--collateral 0x<ERC-20>]
 *       [--fee-recipient 0x...] [--open-mint]
 *
 * The key comes from DEPLOYER_PRIVATE_KEY (else OPERATOR_PRIVATE_KEY), never from the command line,
 * where the shell history and the process list would keep it. The chain id is the node's own.
 * `--collateral` uses an existing 18-decimal ERC-20 (a stablecoin) instead of deploying the test
 * token; `--open-mint` lets anyone mint the test token, for development chains only.
 */
import { createPublicClient, getAddress, http, type Hex } from 'viem';
import { deployContracts } from '../src/chain/deploy-contracts';

function option(argv: string[], name: string): string | undefined {
  const at = argv.indexOf(name);
  return at >= 0 ? argv[at + 1] : undefined;
}

/** Deploys and returns the lines to print; throws with a usage message on a bad invocation. */
export async function deployContractsCommand(argv: string[], env: NodeJS.ProcessEnv): Promise<string[]> {
  const rpcUrl = option(argv, '--rpc');
  const key = env.DEPLOYER_PRIVATE_KEY || env.OPERATOR_PRIVATE_KEY;
  if (!rpcUrl || !key || !/^0x[0-9a-fA-F]{64}$/.test(key)) {
    throw new Error('usage: DEPLOYER_PRIVATE_KEY=0x<key> npm run deploy:contracts -- --rpc <url> [--collateral 0x<erc20>] [--fee-recipient 0x<address>] [--open-mint]');
  }
  const chainId = await createPublicClient({ transport: http(rpcUrl) }).getChainId();
  const collateral = option(argv, '--collateral');
  const feeRecipient = option(argv, '--fee-recipient');
  const deployed = await deployContracts({
    rpcUrl, chainId, deployerKey: key as Hex, openMint: argv.includes('--open-mint'),
    existingCollateral: collateral ? getAddress(collateral) : undefined,
    feeRecipient: feeRecipient ? getAddress(feeRecipient) : undefined,
  });
  return [
    `# chain ${chainId}, deployed by block ${deployed.blockNumber}`,
    `CHAIN_ID=${chainId}`,
    `EXCHANGE_ADDRESS=${deployed.exchange}`,
    `COLLATERAL_ADDRESS=${deployed.collateral}`,
    `CONDITIONAL_TOKENS_ADDRESS=${deployed.conditionalTokens}`,
  ];
}

if (require.main === module) {
  deployContractsCommand(process.argv.slice(2), process.env).then(
    (lines) => process.stdout.write(`${lines.join('\n')}\n`),
    (error: unknown) => {
      process.stderr.write(`${error instanceof Error ? error.message : String(error)}\n`);
      process.exit(1);
    },
  );
}
