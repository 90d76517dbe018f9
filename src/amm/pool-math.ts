/**
 * The pool's trade math, ported from contracts/AmmPool.sol to the wei: bigint only, every
 * division where the contract divides, rounding the way it rounds (docs/amm.md).
 * `balances` is [outcome 0 (NO), outcome 1 (YES)] as the pool holds them.
 */
export const BPS = 10_000n;

export type PoolBalances = readonly [bigint, bigint];

export class PoolMathError extends Error {}

function ceilDiv(a: bigint, b: bigint): bigint {
  return a === 0n ? 0n : (a - 1n) / b + 1n;
}

function tradedAndOther(balances: PoolBalances, outcome: 0 | 1): [bigint, bigint] {
  return outcome === 0 ? [balances[0], balances[1]] : [balances[1], balances[0]];
}

/** The fee the pool keeps from a buy of `investment` collateral. */
export function buyFee(investment: bigint, feeBps: bigint): bigint {
  return (investment * feeBps) / BPS;
}

/** The fee the pool keeps on a sell paying `returnAmount` collateral. */
export function sellFee(returnAmount: bigint, feeBps: bigint): bigint {
  return (returnAmount * feeBps) / (BPS - feeBps);
}

/** AmmPool.calcBuyAmount: outcome tokens `investment` collateral buys. */
export function calcBuyAmount(balances: PoolBalances, feeBps: bigint, investment: bigint, outcome: 0 | 1): bigint {
  const [traded, other] = tradedAndOther(balances, outcome);
  if (traded === 0n || other === 0n) throw new PoolMathError('the pool has no liquidity');
  const net = investment - buyFee(investment, feeBps);
  return traded + net - ceilDiv(traded * other, other + net);
}

/** AmmPool.calcSellAmount: outcome tokens the pool takes to pay `returnAmount` collateral. */
export function calcSellAmount(balances: PoolBalances, feeBps: bigint, returnAmount: bigint, outcome: 0 | 1): bigint {
  const [traded, other] = tradedAndOther(balances, outcome);
  const gross = (returnAmount * BPS) / (BPS - feeBps);
  if (gross >= other) throw new PoolMathError('the pool cannot pay that much collateral');
  return gross + ceilDiv(traded * other, other - gross) - traded;
}

/** The largest collateral return a sell can pay without the pool reverting. */
export function maxSellReturn(balances: PoolBalances, feeBps: bigint, outcome: 0 | 1): bigint {
  const other = outcome === 0 ? balances[1] : balances[0];
  if (other === 0n) return 0n;
  // gross = floor(r * BPS / (BPS - fee)) < other  <=>  r * BPS < other * (BPS - fee)
  return ceilDiv(other * (BPS - feeBps), BPS) - 1n;
}

/**
 * The largest collateral return whose calcSellAmount is at most `shares`, or 0n when not even 1 wei
 * of collateral can be had. calcSellAmount is non-decreasing in the return (each term is), so a
 * binary search finds it exactly. The search starts from a bracket of +-SELL_GUESS_SPAN wei around
 * the root of the curve without its roundings (sellReturnGuess), which is kept only when both of
 * its ends check out against calcSellAmount itself; else it searches all of [0, maxSellReturn]
 * (~80 steps instead of ~12).
 */
export function sellReturnFor(balances: PoolBalances, feeBps: bigint, shares: bigint, outcome: 0 | 1): bigint {
  const fits = (r: bigint) => calcSellAmount(balances, feeBps, r, outcome) <= shares;
  const max = maxSellReturn(balances, feeBps, outcome);
  let low = 0n;
  let high = max;
  const guess = sellReturnGuess(balances, feeBps, shares, outcome);
  if (guess !== null) {
    const from = guess > SELL_GUESS_SPAN ? guess - SELL_GUESS_SPAN : 0n;
    const to = guess + SELL_GUESS_SPAN;
    if (from <= max && fits(from)) low = from;
    if (to < max && !fits(to + 1n)) high = to;
  }
  while (low < high) {
    const mid = (low + high + 1n) / 2n;
    if (fits(mid)) low = mid;
    else high = mid - 1n;
  }
  return low;
}

const SELL_GUESS_SPAN = 1_000n;

/**
 * The return r whose gross g = r * BPS / (BPS - fee) solves g + T * O / (O - g) - T = shares
 * (T the sold outcome's balance, O the other's): the smaller root of g^2 - (O + T + s) g + s O = 0.
 */
function sellReturnGuess(balances: PoolBalances, feeBps: bigint, shares: bigint, outcome: 0 | 1): bigint | null {
  const [traded, other] = tradedAndOther(balances, outcome);
  if (traded === 0n || other === 0n || shares <= 0n) return null;
  const b = other + traded + shares;
  const root = isqrt(b * b - 4n * shares * other);
  const gross = (b - root) / 2n;
  return (gross * (BPS - feeBps)) / BPS;
}

/** floor(sqrt(n)) near enough for a guess: a float start and two Newton steps. */
function isqrt(n: bigint): bigint {
  if (n < 2n) return n;
  let x = BigInt(Math.floor(Math.sqrt(Number(n))));
  if (x === 0n) x = 1n;
  x = (x + n / x) / 2n;
  return (x + n / x) / 2n;
}

/** Balances after a buy, as the contract leaves them. */
export function balancesAfterBuy(balances: PoolBalances, feeBps: bigint, investment: bigint, outcome: 0 | 1): PoolBalances {
  const net = investment - buyFee(investment, feeBps);
  const bought = calcBuyAmount(balances, feeBps, investment, outcome);
  const next: [bigint, bigint] = [balances[0] + net, balances[1] + net];
  next[outcome] -= bought;
  return next;
}

/** Balances after a sell, as the contract leaves them. */
export function balancesAfterSell(balances: PoolBalances, feeBps: bigint, returnAmount: bigint, outcome: 0 | 1): PoolBalances {
  const gross = returnAmount + sellFee(returnAmount, feeBps);
  const sold = calcSellAmount(balances, feeBps, returnAmount, outcome);
  const next: [bigint, bigint] = [balances[0] - gross, balances[1] - gross];
  next[outcome] += sold;
  return next;
}
