import type { Address, Hex } from 'viem';

/** The three contracts of one deployment. */
export interface ChainAddresses {
  exchange: Address;
  collateral: Address;
  conditionalTokens: Address;
}

export interface ChainPortConfig {
  rpcUrl: string;
  chainId: number;
  /** Settlement wallet: exchange operator, and oracle of the conditions it prepares. Unset: the port reads, never signs (the API process). */
  operatorKey?: Hex;
  addresses: ChainAddresses;
  /** Blocks on top of the one including a settlement before it counts as CONFIRMED. */
  confirmations: number;
  /** How often viem polls for receipts and blocks; default 1000 ms (local chains: 100). */
  pollingIntervalMs?: number;
  /** Per-request HTTP timeout; default 10 s. */
  requestTimeoutMs?: number;
}
