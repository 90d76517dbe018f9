/**
 * Admission rules decided against the book before an order trades: post-only (it must not take)
 * and fill-or-kill (it must fill whole at once). Both walk the crossing makers in the order
 * `Engine.match` would take them, without changing the book.
 */
import { canTrade, lotFloor } from './amounts';
import type { BookOrder } from './book-order';
import type { BookSide } from './book-side';
import { crosses, eligible, isExpired } from './order-rules';

/** The resting orders of `opposite` that cross `o`'s price, best price first, FIFO within a level. */
export function* crossingOrders(o: BookOrder, opposite: BookSide): Generator<BookOrder> {
  for (const price of [...opposite.prices]) {
    if (!crosses(o, price)) return;
    for (let r = opposite.level(price)?.head ?? null; r; ) {
      const next = r.next; // read before yielding: the caller may take `r` off the book
      yield r;
      r = next;
    }
  }
}

/**
 * A post-only order would take: some live resting order it may trade with crosses its price. The
 * wallet's own orders count too (matching would cancel them under self-trade prevention, which a
 * post-only order must not cause either).
 */
export function wouldTake(o: BookOrder, opposite: BookSide, now: number): boolean {
  for (const r of crossingOrders(o, opposite)) {
    if (!isExpired(r, now) && eligible(o, r)) return true;
  }
  return false;
}

/**
 * An FOK order fills whole (to less than one lot, as a matched order ends) against the makers
 * `Engine.match` would trade with: live, eligible, not its own (self-trade cancels those), and no
 * more than `maxMakers` of them.
 */
export function fillsWhole(o: BookOrder, opposite: BookSide, now: number, maxMakers: number): boolean {
  let rest = o.remaining;
  let makers = 0;
  for (const r of crossingOrders(o, opposite)) {
    if (isExpired(r, now) || !eligible(o, r) || r.makerKey === o.makerKey) continue;
    if (makers === maxMakers) return false;
    rest -= lotFloor(rest < r.remaining ? rest : r.remaining);
    makers += 1;
    if (!canTrade(rest)) return true;
  }
  return false;
}
