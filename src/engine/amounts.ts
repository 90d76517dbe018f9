/**
 * Integer money rules of the engine. An order may have any size of at least one lot, but every fill
 * is a whole number of lots (LOT_SIZE base units), so the collateral of any fill at any tick price is
 * exact: fill * ticks / 100 has no remainder, and the four trade kinds conserve collateral to the
 * base unit (mint: YES + NO payments = fill; merge: receipts = fill). A remainder below one lot can
 * never trade: the order is complete with it (see docs/engine.md, "Lots and dust").
 */
import type { Side } from './types';

export const MIN_TICK = 1;
export const MAX_TICK = 100;
/** 100 ticks per unit of collateral: every fill is a multiple of 100 base units; the smallest order is one lot. */
export const LOT_SIZE = 100n;
const TICKS = 100n;
const FEE_DENOMINATOR = 1_000_000n; // 10_000 bps * 100 ticks

export function isTick(price: number): boolean {
  return Number.isInteger(price) && price >= MIN_TICK && price <= MAX_TICK;
}

/** A positive whole number of lots (every fill size is one). */
export function isLotSize(size: bigint): boolean {
  return size > 0n && size % LOT_SIZE === 0n;
}

/** Whole lots of `size`: the most of it that can still trade. */
export function lotFloor(size: bigint): bigint {
  return size - (size % LOT_SIZE);
}

/** An order with this much left can still trade (at least one lot); below that it is complete. */
export function canTrade(remaining: bigint): boolean {
  return remaining >= LOT_SIZE;
}

/** Collateral of `size` tokens at `ticks`; exact for lot-multiple sizes (all fills are). */
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

/**
 * What an order of `size` still to trade (or traded and not yet settled) holds back, in the asset
 * it pays with: for a BUY its collateral at the limit price (rounded up, as its signed amount) plus
 * the largest fee it can owe (fills happen at prices p <= the limit and the fee grows with
 * min(p, 1 - p), so its maximum is at min(limit, 50); per-fill fees round down, so their sum never
 * exceeds it); for a SELL its tokens. Placement reserves this for the whole size, and every later
 * write of the order keeps its `reserved_units` at this for what is left.
 */
export function reserveOf(side: Side, ticks: number, size: bigint, feeRateBps: number): bigint {
  if (side === 'SELL') return size;
  return signedAmounts('BUY', size, ticks).makerAmount + feeOf(size, Math.min(ticks, 50), feeRateBps);
}

/** YES-terms price of an own-outcome price. */
export function toYesPrice(outcome: 0 | 1, ticks: number): number {
  return outcome === 1 ? ticks : MAX_TICK - ticks;
}
