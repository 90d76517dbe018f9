import { createChainPort, ChainPort } from '../chain';
import { ApiConfig, Config, ConfigError } from '../config';
import { wellKnownDevKeyIndex } from './well-known-keys';

/**
 * The chain port of the API and worker processes. Under `npm start` the supervisor passes the
 * embedded chain's URL, dev operator key and contract addresses; in production they come from the
 * environment. A process without a chain configured cannot trade, so this refuses to guess.
 */
export function chainPortFromConfig(config: Config): ChainPort {
  if (!config.OPERATOR_PRIVATE_KEY) throw new ConfigError(['OPERATOR_PRIVATE_KEY is required (npm start sets it for the embedded chain)']);
  return portOf(config, config.OPERATOR_PRIVATE_KEY);
}

/** The API's chain port: reads only, as the API process holds no operator key (its chain writes run on the worker). */
export function readingChainPortFromConfig(config: ApiConfig): ChainPort {
  return portOf(config);
}

function portOf(config: ApiConfig, operatorKey?: Config['OPERATOR_PRIVATE_KEY']): ChainPort {
  const missing = (['CHAIN_RPC_URL', 'EXCHANGE_ADDRESS', 'COLLATERAL_ADDRESS', 'CONDITIONAL_TOKENS_ADDRESS'] as const).filter((name) => !config[name]);
  if (missing.length > 0) {
    throw new ConfigError(missing.map((name) => `${name} is required (npm start sets it for the embedded chain)`));
  }
  return createChainPort({
    rpcUrl: config.CHAIN_RPC_URL!,
    chainId: config.CHAIN_ID,
    operatorKey,
    addresses: {
      exchange: config.EXCHANGE_ADDRESS!,
      collateral: config.COLLATERAL_ADDRESS!,
      conditionalTokens: config.CONDITIONAL_TOKENS_ADDRESS!,
    },
    confirmations: config.CHAIN_CONFIRMATIONS,
  });
}

/**
 * Hardhat's default keys are public: on any chain but the embedded one (npm start sets
 * LOCAL_DEV_CHAIN when it starts it) whatever the operator holds there is anyone's.
 */
export function assertNoDevKeyOffEmbeddedChain(config: Pick<Config, 'OPERATOR_PRIVATE_KEY' | 'LOCAL_DEV_CHAIN' | 'CHAIN_ID'>): void {
  if (config.LOCAL_DEV_CHAIN || !config.OPERATOR_PRIVATE_KEY) return;
  const index = wellKnownDevKeyIndex(config.OPERATOR_PRIVATE_KEY);
  if (index === null) return;
  throw new ConfigError([
    `OPERATOR_PRIVATE_KEY is Hardhat's well-known development key #${index}, which anyone can sign with: it is accepted only on the embedded chain (npm start without CHAIN_RPC_URL), not on chain ${config.CHAIN_ID} at CHAIN_RPC_URL`,
  ]);
}
