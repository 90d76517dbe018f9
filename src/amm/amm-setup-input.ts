/** The AMM setup workflow's id and input: wire contracts shared by the API (which starts it) and the worker. */
export interface AmmMarketSetupInput {
  chain_id: number;
  condition_id: string;
  fee_rate_bps: number;
  /** Initial liquidity in collateral base units, decimal string. */
  liquidity: string;
  /** Mint the liquidity to the operator first (local chains' open mint). */
  mint: boolean;
  actor: string;
}

export function ammMarketSetupWorkflowId(chainId: number, conditionId: string): string {
  return `amm-setup-${chainId}-${conditionId.toLowerCase()}`;
}
