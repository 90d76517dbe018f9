/**
 * Signed amounts from price and size, decisions section 1, integers only. With S = size in base
 * units (size * 10^D) and T = price in ticks (1 tick = 0.01):
 *   BUY  makerAmount = ceil(S*T/100) collateral, takerAmount = S tokens
 *   SELL makerAmount = S tokens,                  takerAmount = floor(S*T/100) collateral
 * The rounding always favours the counterparty, so a signed order never promises less than its price.
 */
import { SIDE, type SideName } from './order';

export const MIN_TICK = 1;
export const MAX_TICK = 100;

export function orderAmounts(side: SideName, sizeBase: bigint, priceTicks: number): { makerAmount: bigint; takerAmount: bigint } {
  if (!Number.isInteger(priceTicks) || priceTicks < MIN_TICK || priceTicks > MAX_TICK) {
    throw new RangeError(`price must be 1..100 ticks, got ${priceTicks}`);
  }
  if (sizeBase <= 0n) throw new RangeError('size must be positive');
  const product = sizeBase * BigInt(priceTicks);
  if (SIDE[side] === SIDE.BUY) return { makerAmount: (product + 99n) / 100n, takerAmount: sizeBase };
  return { makerAmount: sizeBase, takerAmount: product / 100n };
}
