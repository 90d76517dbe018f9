/** The chain-status workflow's id and input: wire contracts shared by the API (which starts it) and the worker. */
export interface MarketChainStatusInput {
  chain_id: number;
  condition_id: string;
}

/** One workflow per market at a time, so its pool and payout transactions never race each other. */
export function marketChainStatusWorkflowId(chainId: number, conditionId: string): string {
  return `chain-status-${chainId}-${conditionId.toLowerCase()}`;
}

/** Starts (or wakes) the market's chain-status workflow after a status change. */
export interface MarketChainSync {
  sync(market: MarketChainStatusInput): Promise<void>;
}
