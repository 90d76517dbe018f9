/**
 * Fill amounts for `matchOrders` are in each order's maker-amount units: collateral wei for a
 * BUY, token wei for a SELL. From a fill of `shares` token wei at `priceTicks` (the maker's price
 * for a maker; the taker's limit for the taker's cap):
 *   BUY  -> shares * ticks / 100 (exact when shares is a multiple of 100, as the engine's lots are)
 *   SELL -> shares
 */
import type { SideName } from '../signing';

export function fillAmountFor(side: SideName, shares: bigint, priceTicks: number): bigint {
  if (side === 'SELL') return shares;
  const product = shares * BigInt(priceTicks);
  if (product % 100n !== 0n) throw new RangeError(`BUY fill of ${shares} at ${priceTicks} ticks is not a whole amount of collateral`);
  return product / 100n;
}
