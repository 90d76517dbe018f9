import { AppError } from '../errors';

/** The contracts of one chain that markets on it use; copied into each market at creation. */
export interface ChainInfo {
  chain_id: number;
  collateral_token: string;
  ctf_exchange_address: string;
  conditional_tokens_address: string;
  /** Collateral ERC-20 decimals; outcome tokens have the same (18 on chain 56). */
  collateral_decimals: number;
}

/** The chains this deployment serves. A chain id outside it is NOT_FOUND everywhere. */
export interface ChainRegistry {
  defaultChainId: number;
  get(chainId: number): ChainInfo | undefined;
  /** The chain, or NOT_FOUND. */
  require(chainId: number | undefined): ChainInfo;
}

export function createChainRegistry(chains: ChainInfo[], defaultChainId = chains[0]?.chain_id): ChainRegistry {
  if (defaultChainId === undefined) throw new Error('at least one chain is required');
  const byId = new Map(chains.map((c) => [c.chain_id, { ...c }]));
  if (!byId.has(defaultChainId)) throw new Error(`default chain ${defaultChainId} is not in the registry`);
  return {
    defaultChainId,
    get: (chainId) => byId.get(chainId),
    require: (chainId) => {
      const chain = byId.get(chainId ?? defaultChainId);
      if (!chain) throw new AppError('NOT_FOUND', `Unknown chain_id ${String(chainId)}`);
      return chain;
    },
  };
}
