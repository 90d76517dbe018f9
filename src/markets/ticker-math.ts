import { formatCanonical, parseUnitsStrict } from '../money';
import type { TickerRecord } from '../db/models';

/**
 * Derived ticker values, computed in integer thousandths from the matcher's three cached prices:
 * spread = ask - bid; display YES = midpoint when both sides exist and the spread is at most 0.10,
 * else the last price, else the midpoint; display NO = 1 - display YES.
 */
export interface TickerValues {
  best_bid: string | null;
  best_ask: string | null;
  last_price: string | null;
  spread: string | null;
  display_price_yes: string | null;
  display_price_no: string | null;
}

const MILLI = 3;
const WIDE_SPREAD_MILLI = 100n;

function toMilli(price: string | null | undefined): bigint | null {
  if (price === null || price === undefined) return null;
  return parseUnitsStrict(price, MILLI);
}

function fromMilli(value: bigint | null): string | null {
  return value === null ? null : formatCanonical(value, MILLI);
}

export function tickerValues(record: Pick<TickerRecord, 'best_bid' | 'best_ask' | 'last_price'> | null): TickerValues {
  const bid = toMilli(record?.best_bid);
  const ask = toMilli(record?.best_ask);
  const last = toMilli(record?.last_price);
  const spread = bid !== null && ask !== null ? ask - bid : null;
  // Prices are whole ticks (multiples of 10 thousandths), so the midpoint is exact in thousandths.
  const mid = bid !== null && ask !== null ? (bid + ask) / 2n : null;
  let yes: bigint | null;
  if (mid !== null && spread !== null && spread <= WIDE_SPREAD_MILLI) yes = mid;
  else yes = last ?? mid;
  return {
    best_bid: fromMilli(bid),
    best_ask: fromMilli(ask),
    last_price: fromMilli(last),
    spread: fromMilli(spread),
    display_price_yes: fromMilli(yes),
    display_price_no: yes === null ? null : fromMilli(1000n - yes),
  };
}

/** The Market's embedded ticker: camelCase JSON numbers, or null when there is no cache yet. */
export interface EmbeddedTicker {
  bestBid: number | null;
  bestAsk: number | null;
  lastPrice: number | null;
  spread: number | null;
  displayPriceYES: number | null;
  displayPriceNO: number | null;
}

export function embeddedTicker(record: TickerRecord | null): EmbeddedTicker | null {
  if (!record) return null;
  const v = tickerValues(record);
  const num = (s: string | null) => (s === null ? null : Number(s));
  return {
    bestBid: num(v.best_bid),
    bestAsk: num(v.best_ask),
    lastPrice: num(v.last_price),
    spread: num(v.spread),
    displayPriceYES: num(v.display_price_yes),
    displayPriceNO: num(v.display_price_no),
  };
}
