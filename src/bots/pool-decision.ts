/**
 * What the demo pool bot does on a step, from what its wallet holds: buy a little of a random
 * outcome, or sell back part of what it holds, or nothing. Bounded so it never drains the wallet:
 * a buy spends at most `maxSpend` and never touches the last `reserve` of collateral; a sell
 * gives at most half of a holding. Amounts are base units (bigint); no I/O.
 */
export interface PoolWallet {
  /** Collateral the wallet can spend. */
  collateral: bigint;
  /** Outcome-token balances in this market: [NO, YES]. */
  shares: [bigint, bigint];
}

export interface PoolLimits {
  /** Most collateral one buy spends. */
  maxSpend: bigint;
  /** Collateral a buy leaves untouched. */
  reserve: bigint;
  /** Smallest trade worth sending (dust costs gas and may quote nothing). */
  minAmount: bigint;
}

export interface PoolDecision {
  side: 'BUY' | 'SELL';
  outcome: 0 | 1;
  /** BUY: collateral to spend; SELL: shares to sell. */
  amount: bigint;
}

/** `random` returns [0, 1); three draws: sell or buy, which outcome, how much. */
export function decidePoolTrade(wallet: PoolWallet, limits: PoolLimits, random: () => number): PoolDecision | null {
  const wantsSell = random() < 0.5;
  const outcome: 0 | 1 = random() < 0.5 ? 0 : 1;
  const share = BigInt(Math.floor(random() * 1_000)) + 1n; // 1..1000 thousandths
  const held = wallet.shares[outcome] >= wallet.shares[1 - outcome] ? outcome : ((1 - outcome) as 0 | 1);
  const sell = (): PoolDecision | null => {
    const amount = (wallet.shares[held] / 2n) * share / 1_000n;
    return amount >= limits.minAmount ? { side: 'SELL', outcome: held, amount } : null;
  };
  const buy = (): PoolDecision | null => {
    const spendable = wallet.collateral - limits.reserve;
    const cap = spendable < limits.maxSpend ? spendable : limits.maxSpend;
    const amount = cap * share / 1_000n;
    return amount >= limits.minAmount ? { side: 'BUY', outcome, amount } : null;
  };
  return wantsSell ? sell() ?? buy() : buy() ?? sell();
}
