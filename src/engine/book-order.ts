import type { BookSide, EngineOrder, EngineOrderStatus } from './types';

/** An order inside the engine: the signed order plus its mutable state and its place in a level's FIFO. */
export interface BookOrder extends EngineOrder {
  /** Lower-case maker and taker, for comparisons. */
  makerKey: string;
  takerKey: string;
  bookSide: BookSide;
  yesPrice: number;
  remaining: bigint;
  filled: bigint;
  status: EngineOrderStatus;
  arrival: number;
  prev: BookOrder | null;
  next: BookOrder | null;
  level: PriceLevel | null;
}

/** One price of one book side: FIFO doubly-linked list (O(1) append and cancel) and its total. */
export class PriceLevel {
  head: BookOrder | null = null;
  tail: BookOrder | null = null;
  total = 0n;
  count = 0;

  constructor(readonly price: number) {}

  /**
   * Puts the order at its place in arrival order: the tail for a new order (O(1)); further in for
   * an order reinstated with its original arrival (it walks back from the tail).
   */
  append(order: BookOrder): void {
    let before = this.tail;
    while (before && before.arrival > order.arrival) before = before.prev;
    const after = before ? before.next : this.head;
    order.prev = before;
    order.next = after;
    if (before) before.next = order;
    else this.head = order;
    if (after) after.prev = order;
    else this.tail = order;
    order.level = this;
    this.total += order.remaining;
    this.count += 1;
  }

  remove(order: BookOrder): void {
    if (order.prev) order.prev.next = order.next;
    else this.head = order.next;
    if (order.next) order.next.prev = order.prev;
    else this.tail = order.prev;
    this.total -= order.remaining;
    this.count -= 1;
    order.prev = null;
    order.next = null;
    order.level = null;
  }
}
