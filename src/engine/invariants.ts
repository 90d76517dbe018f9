/**
 * Engine invariants, checked by assertInvariants():
 * 1. Size conservation: every resting order has size = remaining + filled, filled a whole number of
 *    lots (>= 0), remaining at least one lot (a sub-lot remainder cannot trade, so it never rests),
 *    and status OPEN when filled = 0, PARTIALLY_FILLED otherwise.
 * 2. Levels: each level's total equals the sum of its orders' remaining, its count their number, its
 *    orders sit at its price on their book side, in strictly increasing arrival (FIFO); the sorted
 *    price list holds exactly the non-empty levels, best first; every resting order is in a level.
 * 3. No matchable cross: no resting bid and ask with bid price >= ask price that could trade with each
 *    other (both taker restrictions allow the pair). Restricted orders may leave a crossed-looking
 *    book; same-maker pairs cannot remain crossed because self-trade cancels the resting order.
 */
import { canTrade, LOT_SIZE } from './amounts';
import type { BookOrder } from './book-order';
import type { BookSide } from './book-side';
import type { Engine } from './engine';
import { EngineError } from './engine-error';
import { eligible } from './order-rules';

export function checkInvariants(engine: Engine): void {
  let onBook = 0;
  onBook += checkSide(engine.bids, engine);
  onBook += checkSide(engine.asks, engine);
  if (onBook !== engine.orders.size) fail(`orders index holds ${engine.orders.size} orders, levels ${onBook}`);
  checkNoMatchableCross(engine);
}

function fail(message: string): never {
  throw new EngineError('INVARIANT_VIOLATED', message);
}

function checkSide(side: BookSide, engine: Engine): number {
  let count = 0;
  side.prices.forEach((price, i) => {
    if (i > 0 && !side.better(side.prices[i - 1], price)) fail(`${side.side} prices not sorted best first at ${price}`);
    const level = side.level(price);
    if (!level || level.count === 0) fail(`${side.side} ${price}: listed price without orders`);
    let total = 0n;
    let n = 0;
    let lastArrival = 0;
    for (let o: BookOrder | null = level.head; o; o = o.next) {
      checkOrder(o, side, price, engine);
      if (o.arrival <= lastArrival) fail(`${side.side} ${price}: FIFO broken at ${o.hash}`);
      if (o.next && o.next.prev !== o) fail(`${side.side} ${price}: broken links at ${o.hash}`);
      lastArrival = o.arrival;
      total += o.remaining;
      n += 1;
    }
    if (total !== level.total) fail(`${side.side} ${price}: level total ${level.total} != sum ${total}`);
    if (n !== level.count) fail(`${side.side} ${price}: level count ${level.count} != ${n}`);
    count += n;
  });
  for (let price = 0; price <= 100; price++) {
    if (side.level(price) && !side.prices.includes(price)) fail(`${side.side} ${price}: level missing from the price list`);
  }
  return count;
}

function checkOrder(o: BookOrder, side: BookSide, price: number, engine: Engine): void {
  if (engine.orders.get(o.hash) !== o) fail(`${o.hash}: on a level but not in the index`);
  if (o.bookSide !== side.side || o.yesPrice !== price || o.level?.price !== price) fail(`${o.hash}: on the wrong level`);
  if (o.remaining + o.filled !== o.size) fail(`${o.hash}: size ${o.size} != remaining ${o.remaining} + filled ${o.filled}`);
  if (!canTrade(o.remaining)) fail(`${o.hash}: rests with ${o.remaining} base units, less than one lot`);
  if (o.filled < 0n || o.filled % LOT_SIZE !== 0n) fail(`${o.hash}: filled ${o.filled} is not a whole number of lots`);
  const status = o.filled === 0n ? 'OPEN' : 'PARTIALLY_FILLED';
  if (o.status !== status) fail(`${o.hash}: status ${o.status}, expected ${status}`);
}

function checkNoMatchableCross(engine: Engine): void {
  const bestBid = engine.bestBid();
  const bestAsk = engine.bestAsk();
  if (bestBid === null || bestAsk === null || bestBid < bestAsk) return;
  const crossingBids = ordersFrom(engine.bids, (p) => p >= bestAsk);
  const crossingAsks = ordersFrom(engine.asks, (p) => p <= bestBid);
  for (const b of crossingBids) {
    for (const a of crossingAsks) {
      if (b.yesPrice >= a.yesPrice && eligible(b, a)) fail(`crossed book: bid ${b.hash} @${b.yesPrice} can match ask ${a.hash} @${a.yesPrice}`);
    }
  }
}

function ordersFrom(side: BookSide, keep: (price: number) => boolean): BookOrder[] {
  const out: BookOrder[] = [];
  for (const price of side.prices) {
    if (!keep(price)) break;
    for (let o = side.level(price)!.head; o; o = o.next) out.push(o);
  }
  return out;
}
