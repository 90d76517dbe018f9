import { PriceLevel, type BookOrder } from './book-order';
import type { BookSide as SideName } from './types';

/**
 * One side of the YES-terms book. Levels are indexed by price (YES ticks 0..100) and the active
 * prices kept in a list sorted best first (bids descending, asks ascending), found by binary search.
 */
export class BookSide {
  private readonly byPrice: (PriceLevel | undefined)[] = new Array<PriceLevel | undefined>(101);
  /** Active prices, best first. */
  readonly prices: number[] = [];

  constructor(readonly side: SideName) {}

  /** True when price a is better than price b on this side. */
  better(a: number, b: number): boolean {
    return this.side === 'bid' ? a > b : a < b;
  }

  level(price: number): PriceLevel | undefined {
    return this.byPrice[price];
  }

  best(): PriceLevel | undefined {
    return this.prices.length === 0 ? undefined : this.byPrice[this.prices[0]];
  }

  add(order: BookOrder): PriceLevel {
    let level = this.byPrice[order.yesPrice];
    if (!level) {
      level = new PriceLevel(order.yesPrice);
      this.byPrice[order.yesPrice] = level;
      this.prices.splice(this.indexOf(order.yesPrice), 0, order.yesPrice);
    }
    level.append(order);
    return level;
  }

  /** Takes the order out of its level; drops the level when it empties. */
  remove(order: BookOrder): PriceLevel {
    const level = order.level;
    if (!level) throw new Error(`order ${order.hash} is not on the book`);
    level.remove(order);
    if (level.count === 0) this.dropLevel(level.price);
    return level;
  }

  /** Lower the level total after a partial fill of one of its orders. */
  reduce(order: BookOrder, amount: bigint): void {
    if (order.level) order.level.total -= amount;
  }

  private dropLevel(price: number): void {
    this.byPrice[price] = undefined;
    const i = this.indexOf(price);
    if (this.prices[i] === price) this.prices.splice(i, 1);
  }

  /** First index whose price is not better than `price` (binary search in best-first order). */
  private indexOf(price: number): number {
    let lo = 0;
    let hi = this.prices.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (this.better(this.prices[mid], price)) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }
}
