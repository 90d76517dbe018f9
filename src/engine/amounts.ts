/**
 * Integer money rules of the engine. Sizes are multiples of LOT_SIZE base units, so the collateral of
 * any fill at any tick price is exact: size * ticks / 100 has no remainder, and the four trade kinds
 * conserve collateral to the base unit (mint: YES + NO payments = size; merge: receipts = size).
 */
import type { Side } from './types';

export const MIN_TICK = 1;
export const MAX_TICK = 100;
/** 100 ticks per unit of collateral: base units of a fill must be divisible by 100. */
export const LOT_SIZE = 100n;
const TICKS = 100n;
const FEE_DENOMINATOR = 1_000_000n; // 10_000 bps * 100 ticks

export function isTick(price: number): boolean {
  return Number.isInteger(price) && price >= MIN_TICK && price <= MAX_TICK;
}

/** A size the engine accepts: positive multiple of LOT_SIZE. */
export function isLotSize(size: bigint): boolean {
  return size > 0n && size % LOT_SIZE === 0n;
}

/** Collateral of `size` tokens at `ticks`; exact for lot-multiple sizes. */
export function collateralOf(size: bigint, ticks: number): bigint {
  return (size * BigInt(ticks)) / TICKS;
}

/** Fee in collateral base units: floor(bps/10000 * min(p, 1-p) * size), p = ticks/100. */
export function feeOf(size: bigint, ticks: number, feeRateBps: number): bigint {
  const edge = BigInt(Math.min(ticks, MAX_TICK - ticks));
  return (BigInt(feeRateBps) * edge * size) / FEE_DENOMINATOR;
}

/** Signed amounts per decisions section 1: BUY (ceil(S*T/100), S), SELL (S, floor(S*T/100)). */
export function signedAmounts(side: Side, size: bigint, ticks: number): { makerAmount: bigint; takerAmount: bigint } {
  const product = size * BigInt(ticks);
  if (side === 'BUY') return { makerAmount: (product + TICKS - 1n) / TICKS, takerAmount: size };
  return { makerAmount: size, takerAmount: product / TICKS };
}

/** YES-terms price of an own-outcome price. */
export function toYesPrice(outcome: 0 | 1, ticks: number): number {
  return outcome === 1 ? ticks : MAX_TICK - ticks;
}
