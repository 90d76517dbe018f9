/**
 * The AMM quote of decisions section 9, computed from one pool state: pure, so the response is
 * exactly what the contract computes at `state.blockNumber`. Prices and averages are collateral
 * per share, rounded down to 6 decimals; amounts are the contract's wei as decimal strings.
 */
import { AppError } from '../errors';
import { formatCanonical } from '../money';
import {
  balancesAfterBuy, balancesAfterSell, buyFee, calcBuyAmount, calcSellAmount, sellFee, sellReturnFor, type PoolBalances,
} from './pool-math';
import type { PoolState } from './pool-state';

export const PRICE_DECIMALS = 6;
/**
 * The pool's depth for one trade: the traded outcome's price after it stays within the order
 * book's price range [0.01, 0.99]. Beyond that the pool still "pays", but at prices no trader
 * means to get (selling a million shares into a 1,000-collateral pool returns ~1,000).
 */
export const MIN_PRICE_BPS = 100n;
export const MAX_PRICE_BPS = 9_900n;

export interface AmmQuoteRequest {
  chainId: number;
  conditionId: string;
  outcome: 0 | 1;
  side: 'BUY' | 'SELL';
  /** BUY: collateral to spend; SELL: shares to sell; base units. */
  amount: bigint;
  decimals: number;
}

export interface AmmQuote {
  body: Record<string, unknown>;
  /** What the pool call needs: BUY spends `amount` for `shares`; SELL returns `collateral` for at most `amount` shares. */
  shares: bigint;
  collateral: bigint;
}

/** floor(num / den) as a decimal with PRICE_DECIMALS digits. */
export function ratio(num: bigint, den: bigint): string {
  return formatCanonical((num * 10n ** BigInt(PRICE_DECIMALS)) / den, PRICE_DECIMALS);
}

/** p_k = b_other / (b_0 + b_1), as [numerator, denominator]. */
function priceOf(balances: PoolBalances, outcome: 0 | 1): [bigint, bigint] {
  return [balances[outcome === 0 ? 1 : 0], balances[0] + balances[1]];
}

/** How far the trade's own price (fee excluded) is from the price before, in bps of it, rounded down. */
function impactBps(before: [bigint, bigint], collateral: bigint, shares: bigint, side: 'BUY' | 'SELL'): number {
  const [p, q] = before;
  const diff = side === 'BUY' ? collateral * q - shares * p : shares * p - collateral * q;
  return diff <= 0n ? 0 : Number((diff * 10_000n) / (shares * p));
}

function afterTrade(state: PoolState, side: 'BUY' | 'SELL', outcome: 0 | 1, amount: bigint): PoolBalances | null {
  const { balances, feeBps } = state;
  if (side === 'BUY') return balancesAfterBuy(balances, feeBps, amount, outcome);
  const collateral = sellReturnFor(balances, feeBps, amount, outcome);
  return collateral === 0n ? null : balancesAfterSell(balances, feeBps, collateral, outcome);
}

function withinDepth(after: PoolBalances | null, side: 'BUY' | 'SELL', outcome: 0 | 1): boolean {
  if (!after) return true;
  const [p, q] = priceOf(after, outcome);
  return side === 'BUY' ? p * 10_000n <= MAX_PRICE_BPS * q : p * 10_000n >= MIN_PRICE_BPS * q;
}

/** The largest amount below `amount` that keeps the price within the pool's depth (prices move monotonically with size). */
function maxAmountWithinDepth(state: PoolState, side: 'BUY' | 'SELL', outcome: 0 | 1, amount: bigint): bigint {
  let low = 0n;
  let high = amount - 1n;
  while (low < high) {
    const mid = (low + high + 1n) / 2n;
    if (withinDepth(afterTrade(state, side, outcome, mid), side, outcome)) low = mid;
    else high = mid - 1n;
  }
  return low;
}

export function quoteAmm(state: PoolState, request: AmmQuoteRequest): AmmQuote {
  const { balances, feeBps } = state;
  const { outcome, side, amount, decimals } = request;
  const format = (wei: bigint) => formatCanonical(wei, decimals);
  const before = priceOf(balances, outcome);
  if (!withinDepth(afterTrade(state, side, outcome, amount), side, outcome)) {
    throw new AppError('VALIDATION_ERROR', `amount is larger than the pool can pay within prices 0.01 to 0.99`, {
      max_amount: format(maxAmountWithinDepth(state, side, outcome, amount)),
    });
  }
  let shares: bigint;
  let collateral: bigint;
  let fee: bigint;
  let after: PoolBalances;
  let tradePrice: bigint;
  if (side === 'BUY') {
    shares = calcBuyAmount(balances, feeBps, amount, outcome);
    if (shares === 0n) throw new AppError('VALIDATION_ERROR', 'amount is too small to buy any shares from the pool');
    collateral = amount;
    fee = buyFee(amount, feeBps);
    tradePrice = amount - fee;
    after = balancesAfterBuy(balances, feeBps, amount, outcome);
  } else {
    collateral = sellReturnFor(balances, feeBps, amount, outcome);
    if (collateral === 0n) throw new AppError('VALIDATION_ERROR', 'amount is too small to sell for any collateral');
    shares = calcSellAmount(balances, feeBps, collateral, outcome);
    fee = sellFee(collateral, feeBps);
    tradePrice = collateral + fee;
    after = balancesAfterSell(balances, feeBps, collateral, outcome);
  }
  const body: Record<string, unknown> = {
    kind: 'AMM',
    chain_id: request.chainId,
    condition_id: request.conditionId,
    outcome,
    side,
    amount: format(amount),
    ...(side === 'BUY' ? { expected_shares: format(shares) } : { expected_collateral: format(collateral) }),
    average_price: ratio(collateral, shares),
    price_before: ratio(...before),
    price_after: ratio(...priceOf(after, outcome)),
    price_impact_bps: impactBps(before, tradePrice, shares, side),
    fee: format(fee),
    block_number: Number(state.blockNumber),
  };
  return { body, shares, collateral };
}

/** [p0, p1] implied by the pool's balances, for the Market's `amm.prices`. */
export function poolPrices(balances: PoolBalances): [string, string] {
  if (balances[0] + balances[1] === 0n) return ['0.5', '0.5'];
  return [ratio(...priceOf(balances, 0)), ratio(...priceOf(balances, 1))];
}
