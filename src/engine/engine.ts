import { crossingOrders, fillsWhole, wouldTake } from './admission';
import { canTrade, collateralOf, feeOf, LOT_SIZE, lotFloor, MAX_TICK } from './amounts';
import type { BookOrder } from './book-order';
import { BookSide } from './book-side';
import { EngineError } from './engine-error';
import { ExpiryQueue } from './expiry-queue';
import { checkInvariants } from './invariants';
import { crosses, eligible, isExpired, toBookOrder, tradeKind, validateOrder } from './order-rules';
import { fromSnapshot, toSnapshot, type EngineSnapshot } from './snapshot';
import {
  MAX_MAKERS_PER_TAKER,
  type BookSide as SideName, type CancelFilter, type CancelReason, type Depth, type EngineEvent, type EngineOptions, type EngineOrder,
  type FillLeg, type OrderState, type Reinstatement,
} from './types';

/**
 * The matching engine of one market: one YES-terms book, price-time priority, trades at the maker's
 * price. Pure and deterministic: time comes in as `now` (unix seconds), ids from internal counters,
 * and every call returns the events it caused, in order.
 */
export class Engine {
  readonly marketId: string;
  readonly maxMakersPerTaker: number;
  /** @internal */ readonly bids = new BookSide('bid');
  /** @internal */ readonly asks = new BookSide('ask');
  /** @internal Resting orders in arrival order. */ readonly orders = new Map<string, BookOrder>();
  /** @internal */ readonly expiries = new ExpiryQueue();
  /** @internal */ counters = { seq: 0, bookSeq: 0, tradeSeq: 0, arrival: 0 };

  private events: EngineEvent[] = [];
  private now = 0;
  /** Levels touched by the current call, with their total before it. */
  private touched = new Map<number, { side: SideName; price: number; before: bigint }>();

  constructor(options: EngineOptions) {
    if (typeof options?.marketId !== 'string' || options.marketId === '') {
      throw new EngineError('INVALID_ORDER', 'marketId must be a non-empty string');
    }
    const cap = options.maxMakersPerTaker ?? MAX_MAKERS_PER_TAKER;
    if (!(cap === Number.POSITIVE_INFINITY || (Number.isSafeInteger(cap) && cap >= 1))) {
      throw new EngineError('INVALID_ORDER', `maxMakersPerTaker must be a positive integer or Infinity, got ${String(cap)}`);
    }
    this.marketId = options.marketId;
    this.maxMakersPerTaker = cap;
  }

  /** The cap is configuration, not book state: pass the same options as the engine that was snapshotted. */
  static restore(snapshot: EngineSnapshot, options: Omit<EngineOptions, 'marketId'> = {}): Engine {
    return fromSnapshot(snapshot, (marketId) => new Engine({ ...options, marketId }));
  }

  snapshot(): EngineSnapshot {
    return toSnapshot(this);
  }

  /**
   * Match the order, then rest its remainder (LIMIT, GTD) or cancel it (MARKET). An order left with
   * less than one lot cannot trade any more and ends MATCHED with that dust in `remaining`. An order
   * that took `maxMakersPerTaker` makers and still crosses is cancelled with its remainder
   * (MAX_MAKERS_REACHED): resting it would leave a matchable cross. A post-only order that would
   * take, or an FOK order that cannot fill whole, is cancelled before anything trades.
   */
  place(order: EngineOrder, now: number): EngineEvent[] {
    this.begin(now);
    validateOrder(order);
    if (this.orders.has(order.hash)) throw new EngineError('DUPLICATE_ORDER', `order ${order.hash} is already on the book`);
    const o = toBookOrder(order, ++this.counters.arrival);
    if (isExpired(o, now)) {
      o.status = 'EXPIRED';
      this.events.push({ seq: ++this.counters.seq, at: this.now, type: 'ORDER_EXPIRED', orderHash: o.hash, status: 'EXPIRED', remaining: o.remaining, filled: o.filled });
      return this.finish();
    }
    this.matchAndLeave(o);
    return this.finish();
  }

  /**
   * Puts orders back after the settlement of their match failed because of another order: each
   * one's `returned` base units go from its filled back to its remaining. Every listed order on the
   * book is lifted first; one that is not needs `known`: its filled and remaining as stored, and the
   * arrival it rested with, if it ever did (else it gets a new one). Then, in the given order (the
   * makers by arrival, then their taker), each meets the book as on arrival (orders that came
   * meanwhile may cross it) and rests at its arrival's place in the FIFO: a maker keeps its
   * original time priority, and a taker's units are matched again. All are checked before anything
   * changes: a refused list leaves the book untouched.
   */
  reinstate(list: Reinstatement[], now: number): EngineEvent[] {
    this.begin(now);
    const hashes = new Set<string>();
    for (const { order, returned, known } of list) {
      validateOrder(order);
      if (hashes.has(order.hash)) throw new EngineError('DUPLICATE_ORDER', `order ${order.hash} is listed twice`);
      hashes.add(order.hash);
      const state = this.orders.get(order.hash) ?? known;
      if (!state) throw new EngineError('INVALID_ORDER', `order ${order.hash} is not on the book and its state is unknown`);
      if (returned <= 0n || returned > state.filled || returned % LOT_SIZE !== 0n || state.filled + state.remaining !== order.size) {
        throw new EngineError('INVALID_ORDER', `cannot return ${returned} of ${order.hash} (filled ${state.filled}, remaining ${state.remaining})`);
      }
      const arrival = this.orders.has(order.hash) ? null : known?.arrival;
      if (arrival !== undefined && arrival !== null && (!Number.isSafeInteger(arrival) || arrival < 1 || arrival > this.counters.arrival)) {
        throw new EngineError('INVALID_ORDER', `arrival ${arrival} of ${order.hash} is not one the engine gave out`);
      }
    }
    const lifted = new Map<string, BookOrder>();
    for (const { order } of list) {
      const o = this.orders.get(order.hash);
      if (!o) continue;
      const side = o.bookSide === 'bid' ? this.bids : this.asks;
      this.touch(side, o.yesPrice);
      side.remove(o);
      this.orders.delete(o.hash);
      lifted.set(o.hash, o);
    }
    for (const { order, returned, known } of list) {
      let o = lifted.get(order.hash);
      if (!o) {
        o = toBookOrder(order, known!.arrival ?? ++this.counters.arrival);
        o.filled = known!.filled;
        o.remaining = known!.remaining;
      }
      o.filled -= returned;
      o.remaining += returned;
      if (isExpired(o, now)) {
        o.status = 'EXPIRED';
        this.events.push({ seq: ++this.counters.seq, at: this.now, type: 'ORDER_EXPIRED', orderHash: o.hash, status: 'EXPIRED', remaining: o.remaining, filled: o.filled });
      } else {
        this.matchAndLeave(o);
      }
    }
    return this.finish();
  }

  /** Matches an incoming (or reinstated) order, then rests, cancels or ends its remainder. */
  private matchAndLeave(o: BookOrder): void {
    const refused = this.refusal(o);
    if (refused) {
      o.status = 'CANCELLED';
      this.events.push({ seq: ++this.counters.seq, at: this.now, type: 'ORDER_CANCELLED', orderHash: o.hash, reason: refused, status: 'CANCELLED', remaining: o.remaining, filled: o.filled });
      return;
    }
    const capped = this.match(o);
    if (!canTrade(o.remaining)) {
      // size >= one lot, so a sub-lot remainder means something matched.
      o.status = 'MATCHED';
      this.events.push({ seq: ++this.counters.seq, at: this.now, type: 'ORDER_UPDATED', orderHash: o.hash, status: 'MATCHED', remaining: o.remaining, filled: o.filled });
    } else if (capped || o.orderType === 'MARKET' || o.orderType === 'FOK') {
      // An FOK order passed `refusal`, so it matched whole: this branch is for MARKET remainders and the cap.
      o.status = 'CANCELLED';
      const reason = capped ? 'MAX_MAKERS_REACHED' : o.orderType === 'FOK' ? 'FOK_NOT_FILLED' : 'MARKET_REMAINDER';
      this.events.push({ seq: ++this.counters.seq, at: this.now, type: 'ORDER_CANCELLED', orderHash: o.hash, reason, status: 'CANCELLED', remaining: o.remaining, filled: o.filled });
    } else {
      this.rest(o);
    }
  }

  /** Cancel a resting order; an order already past its expiration is expired instead. Unknown: no events. */
  cancel(orderHash: string, now: number, reason: CancelReason = 'USER'): EngineEvent[] {
    this.begin(now);
    const o = this.orders.get(orderHash);
    if (o) this.removeResting(o, isExpired(o, now) ? 'EXPIRED' : reason);
    return this.finish();
  }

  /** Cancel every resting order matching the filter (maker compared case-insensitively), oldest first. */
  cancelAll(now: number, filter: CancelFilter = {}, reason: CancelReason = 'USER'): EngineEvent[] {
    this.begin(now);
    const maker = filter.maker?.toLowerCase();
    const hit = [...this.orders.values()].filter((o) =>
      (maker === undefined || o.makerKey === maker) && (filter.side === undefined || o.side === filter.side)
      && (filter.outcome === undefined || o.outcome === filter.outcome));
    for (const o of hit) this.removeResting(o, isExpired(o, now) ? 'EXPIRED' : reason);
    return this.finish();
  }

  /** Expire every resting order whose expiration is at or before now, earliest first. */
  expire(now: number): EngineEvent[] {
    this.begin(now);
    for (let top = this.expiries.peek(); top && top.expiration <= now; top = this.expiries.peek()) {
      this.expiries.pop();
      const o = this.orders.get(top.hash);
      if (o && o.arrival === top.arrival) this.removeResting(o, 'EXPIRED');
    }
    return this.finish();
  }

  /** Expire one resting order if its expiration is at or before now. */
  expireOrder(orderHash: string, now: number): EngineEvent[] {
    this.begin(now);
    const o = this.orders.get(orderHash);
    if (o && isExpired(o, now)) this.removeResting(o, 'EXPIRED');
    return this.finish();
  }

  /** Earliest expiration among resting orders (for the workflow's timer), or null. */
  nextExpiration(): number | null {
    for (let top = this.expiries.peek(); top; top = this.expiries.peek()) {
      const o = this.orders.get(top.hash);
      if (o && o.arrival === top.arrival) return top.expiration;
      this.expiries.pop();
    }
    return null;
  }

  /** L2 snapshot: up to n levels per side, bids descending, asks ascending, YES ticks. */
  depth(n = 50): Depth {
    const levels = (side: BookSide) => side.prices.slice(0, Math.max(0, n)).map((price) => ({ price, remaining: side.level(price)!.total }));
    return { seq: this.counters.bookSeq, bids: levels(this.bids), asks: levels(this.asks) };
  }

  bestBid(): number | null {
    return this.bids.best()?.price ?? null;
  }

  bestAsk(): number | null {
    return this.asks.best()?.price ?? null;
  }

  /** State of a resting order, or undefined when it is not on the book. */
  order(orderHash: string): OrderState | undefined {
    const o = this.orders.get(orderHash);
    if (!o) return undefined;
    return {
      hash: o.hash, maker: o.maker, side: o.side, outcome: o.outcome, orderType: o.orderType, price: o.price,
      bookSide: o.bookSide, yesPrice: o.yesPrice, size: o.size, remaining: o.remaining, filled: o.filled,
      status: o.status, arrival: o.arrival,
    };
  }

  get restingCount(): number {
    return this.orders.size;
  }

  /** Hashes of the resting orders, oldest arrival first. */
  restingHashes(): string[] {
    return [...this.orders.keys()];
  }

  /** Throws EngineError('INVARIANT_VIOLATED') when the book state is inconsistent. */
  assertInvariants(): void {
    checkInvariants(this);
  }

  /** Why an arriving order may not trade at all (admission.ts), or null. */
  private refusal(o: BookOrder): 'POST_ONLY_WOULD_CROSS' | 'FOK_NOT_FILLED' | null {
    const opposite = o.bookSide === 'bid' ? this.asks : this.bids;
    if (o.postOnly) {
      if (wouldTake(o, opposite, this.now)) return 'POST_ONLY_WOULD_CROSS';
      // It will rest: expired makers at crossing prices leave first, as matching would remove them.
      for (const r of crossingOrders(o, opposite)) if (isExpired(r, this.now)) this.removeResting(r, 'EXPIRED');
    }
    if (o.orderType === 'FOK' && !fillsWhole(o, opposite, this.now, this.maxMakersPerTaker)) return 'FOK_NOT_FILLED';
    return null;
  }

  /** Trades `o` against the crossing makers; true when it stopped at the makers cap with one more to take. */
  private match(o: BookOrder): boolean {
    const opposite = o.bookSide === 'bid' ? this.asks : this.bids;
    let makers = 0;
    let i = 0;
    while (canTrade(o.remaining) && i < opposite.prices.length) {
      const price = opposite.prices[i];
      if (!crosses(o, price)) break;
      let r = opposite.level(price)!.head;
      while (r && canTrade(o.remaining)) {
        const next = r.next;
        if (isExpired(r, this.now)) this.removeResting(r, 'EXPIRED');
        else if (eligible(o, r)) {
          // Self-trade prevention: the resting order of the same maker is cancelled (cancel-oldest).
          if (r.makerKey === o.makerKey) this.removeResting(r, 'SELF_TRADE');
          else if (makers === this.maxMakersPerTaker) return true;
          else {
            this.fill(o, r, opposite);
            makers += 1;
          }
        }
        r = next;
      }
      if (opposite.prices[i] === price) i += 1; // the level survived: move on to the next price
    }
    return false;
  }

  /** One trade of whole lots: both orders hold at least one lot, so size >= LOT_SIZE. */
  private fill(taker: BookOrder, maker: BookOrder, makerSide: BookSide): void {
    const size = lotFloor(taker.remaining < maker.remaining ? taker.remaining : maker.remaining);
    const yesPrice = maker.yesPrice;
    this.touch(makerSide, yesPrice);
    taker.remaining -= size;
    taker.filled += size;
    maker.remaining -= size;
    maker.filled += size;
    makerSide.reduce(maker, size);
    this.events.push({
      seq: ++this.counters.seq, at: this.now, type: 'TRADE', tradeId: `${this.marketId}:${++this.counters.tradeSeq}`, kind: tradeKind(taker, maker), yesPrice, size,
      maker: leg(maker, yesPrice, size), taker: leg(taker, yesPrice, size),
    });
    if (!canTrade(maker.remaining)) {
      // Done: a sub-lot remainder (dust) leaves the book with the order and stays in `remaining`.
      maker.status = 'MATCHED';
      makerSide.remove(maker);
      this.orders.delete(maker.hash);
    } else {
      maker.status = 'PARTIALLY_FILLED';
    }
    this.events.push({ seq: ++this.counters.seq, at: this.now, type: 'ORDER_UPDATED', orderHash: maker.hash, status: maker.status, remaining: maker.remaining, filled: maker.filled });
  }

  private rest(o: BookOrder): void {
    o.status = o.filled === 0n ? 'OPEN' : 'PARTIALLY_FILLED';
    const side = o.bookSide === 'bid' ? this.bids : this.asks;
    this.touch(side, o.yesPrice);
    side.add(o);
    this.orders.set(o.hash, o);
    if (o.expiration !== 0) this.expiries.push({ expiration: o.expiration, arrival: o.arrival, hash: o.hash });
    this.events.push({ seq: ++this.counters.seq, at: this.now, type: 'ORDER_RESTED', orderHash: o.hash, bookSide: o.bookSide, yesPrice: o.yesPrice, status: o.status, remaining: o.remaining, filled: o.filled });
  }

  private removeResting(o: BookOrder, why: CancelReason | 'EXPIRED'): void {
    const side = o.bookSide === 'bid' ? this.bids : this.asks;
    this.touch(side, o.yesPrice);
    side.remove(o);
    this.orders.delete(o.hash);
    if (why === 'EXPIRED') {
      o.status = 'EXPIRED';
      this.events.push({ seq: ++this.counters.seq, at: this.now, type: 'ORDER_EXPIRED', orderHash: o.hash, status: 'EXPIRED', remaining: o.remaining, filled: o.filled });
    } else {
      o.status = 'CANCELLED';
      this.events.push({ seq: ++this.counters.seq, at: this.now, type: 'ORDER_CANCELLED', orderHash: o.hash, reason: why, status: 'CANCELLED', remaining: o.remaining, filled: o.filled });
    }
  }

  private begin(now: number): void {
    if (!Number.isSafeInteger(now) || now < 0) throw new EngineError('INVALID_TIME', `now must be a non-negative integer (unix seconds), got ${String(now)}`);
    this.now = now;
    this.events = [];
    this.touched.clear();
  }

  private touch(side: BookSide, price: number): void {
    const key = side.side === 'bid' ? price : -1 - price;
    if (!this.touched.has(key)) this.touched.set(key, { side: side.side, price, before: side.level(price)?.total ?? 0n });
  }

  /** Appends one BOOK_LEVEL_CHANGED per level whose total changed, under one new book seq. */
  private finish(): EngineEvent[] {
    let bookSeq = 0;
    for (const { side, price, before } of this.touched.values()) {
      const remaining = (side === 'bid' ? this.bids : this.asks).level(price)?.total ?? 0n;
      if (remaining === before) continue;
      if (bookSeq === 0) bookSeq = ++this.counters.bookSeq;
      this.events.push({ seq: ++this.counters.seq, at: this.now, type: 'BOOK_LEVEL_CHANGED', bookSeq, side, price, remaining });
    }
    this.touched.clear();
    const events = this.events;
    this.events = [];
    if (this.expiries.size > 1024 && this.expiries.size > 4 * this.orders.size) this.compactExpiries();
    return events;
  }

  private compactExpiries(): void {
    const live: BookOrder[] = [...this.orders.values()].filter((o) => o.expiration !== 0);
    this.expiries.clear();
    for (const o of live) this.expiries.push({ expiration: o.expiration, arrival: o.arrival, hash: o.hash });
  }
}

function leg(o: BookOrder, yesPrice: number, size: bigint): FillLeg {
  const price = o.outcome === 1 ? yesPrice : MAX_TICK - yesPrice;
  return {
    orderHash: o.hash, maker: o.maker, side: o.side, outcome: o.outcome, price, size,
    collateral: collateralOf(size, price), fee: feeOf(size, price, o.feeRateBps),
  };
}
