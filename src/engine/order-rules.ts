import { canTrade, isTick, signedAmounts, toYesPrice } from './amounts';
import type { BookOrder } from './book-order';
import { EngineError } from './engine-error';
import { ZERO_ADDRESS, type EngineOrder, type TradeKind } from './types';

const ZERO_KEY = ZERO_ADDRESS.toLowerCase();

/** Throws EngineError unless the order is well-formed for the engine. */
export function validateOrder(order: EngineOrder): void {
  const fail = (code: 'INVALID_ORDER' | 'INVALID_PRICE' | 'INVALID_SIZE' | 'DRIFTED_AMOUNTS', message: string): never => {
    throw new EngineError(code, message, { orderHash: order?.hash });
  };
  if (typeof order !== 'object' || order === null) fail('INVALID_ORDER', 'order must be an object');
  if (typeof order.hash !== 'string' || order.hash === '') fail('INVALID_ORDER', 'hash must be a non-empty string');
  if (typeof order.maker !== 'string' || order.maker === '') fail('INVALID_ORDER', 'maker must be a non-empty string');
  if (typeof order.taker !== 'string' || order.taker === '') fail('INVALID_ORDER', 'taker must be an address (zero address for open orders)');
  if (order.side !== 'BUY' && order.side !== 'SELL') fail('INVALID_ORDER', 'side must be BUY or SELL');
  if (order.outcome !== 0 && order.outcome !== 1) fail('INVALID_ORDER', 'outcome must be 0 or 1');
  if (!['LIMIT', 'GTD', 'MARKET', 'FOK'].includes(order.orderType)) fail('INVALID_ORDER', 'orderType must be LIMIT, GTD, MARKET or FOK');
  if (order.postOnly !== undefined && typeof order.postOnly !== 'boolean') fail('INVALID_ORDER', 'postOnly must be a boolean');
  if (order.postOnly && order.orderType !== 'LIMIT' && order.orderType !== 'GTD') fail('INVALID_ORDER', 'postOnly needs a LIMIT or GTD order');
  if (!isTick(order.price)) fail('INVALID_PRICE', `price must be an integer tick in 1..100, got ${String(order.price)}`);
  if (typeof order.size !== 'bigint' || !canTrade(order.size)) {
    fail('INVALID_SIZE', `size must be a bigint of at least one lot (100 base units), got ${String(order.size)}`);
  }
  if (!Number.isSafeInteger(order.expiration) || order.expiration < 0) fail('INVALID_ORDER', 'expiration must be a non-negative integer');
  if (order.orderType === 'GTD' && order.expiration === 0) fail('INVALID_ORDER', 'GTD requires a non-zero expiration');
  if (!Number.isInteger(order.feeRateBps) || order.feeRateBps < 0 || order.feeRateBps > 10_000) {
    fail('INVALID_ORDER', 'feeRateBps must be an integer in 0..10000');
  }
  const expected = signedAmounts(order.side, order.size, order.price);
  if (order.makerAmount !== expected.makerAmount || order.takerAmount !== expected.takerAmount) {
    fail('DRIFTED_AMOUNTS', 'Drifted signed amounts');
  }
}

export function toBookOrder(order: EngineOrder, arrival: number): BookOrder {
  const bid = (order.side === 'BUY') === (order.outcome === 1);
  // Explicit fields (no spread): one stable object shape keeps the hot path fast.
  return {
    hash: order.hash, maker: order.maker, taker: order.taker, side: order.side, outcome: order.outcome,
    orderType: order.orderType, price: order.price, size: order.size, makerAmount: order.makerAmount,
    takerAmount: order.takerAmount, expiration: order.expiration, feeRateBps: order.feeRateBps, postOnly: order.postOnly === true,
    makerKey: order.maker.toLowerCase(),
    takerKey: order.taker.toLowerCase(),
    bookSide: bid ? 'bid' : 'ask',
    yesPrice: toYesPrice(order.outcome, order.price),
    remaining: order.size,
    filled: 0n,
    status: 'OPEN',
    arrival,
    prev: null,
    next: null,
    level: null,
  };
}

/** Both orders' taker restrictions allow the pair (self-trade is decided separately). */
export function eligible(a: BookOrder, b: BookOrder): boolean {
  return (a.takerKey === ZERO_KEY || a.takerKey === b.makerKey) && (b.takerKey === ZERO_KEY || b.takerKey === a.makerKey);
}

export function isExpired(order: EngineOrder, now: number): boolean {
  return order.expiration !== 0 && order.expiration <= now;
}

/** Kind of a crossing pair: two buys mint, two sells merge, a buy and a sell of one outcome transfer. */
export function tradeKind(a: BookOrder, b: BookOrder): TradeKind {
  if (a.side !== b.side) return 'TRANSFER';
  return a.side === 'BUY' ? 'MINT' : 'MERGE';
}

/** Incoming order `o` would trade at a resting price on the opposite side. */
export function crosses(o: BookOrder, restingPrice: number): boolean {
  return o.bookSide === 'bid' ? o.yesPrice >= restingPrice : o.yesPrice <= restingPrice;
}
