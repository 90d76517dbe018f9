/** The AMM funding workflow's id and input: wire contracts shared by the API (which runs it) and the worker. */
export interface AmmFundingInput {
  chain_id: number;
  condition_id: string;
  /** Collateral to add, base units, decimal string. */
  amount: string;
  /** Mint the amount to the operator first (local chains' open mint). */
  mint: boolean;
}

/** One funding per market at a time: a second one while the first runs is refused, not queued. */
export function ammFundingWorkflowId(chainId: number, conditionId: string): string {
  return `amm-fund-${chainId}-${conditionId.toLowerCase()}`;
}

/** Runs a funding on the worker and waits for it; throws AppError when one is already running. */
export interface AmmFunder {
  fund(input: AmmFundingInput): Promise<void>;
}
