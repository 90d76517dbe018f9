/** A CLOB market's quote as POST /trade/quote answers it, from the book the matcher last wrote. */
import { AppError } from '../errors';
import type { MarketRecord } from '../db/models';
import { formatCanonical, parseUnitsStrict } from '../money';
import type { MarketStore } from '../markets/market-store';
import { ticksToPrice } from '../signing/price-ticks';
import type { YesBook } from '../ports/yes-book';
import { quoteClob, type ClobQuote } from './clob-quote';

export interface QuoteRequest {
  outcome: 0 | 1;
  side: 'BUY' | 'SELL';
  amount: string;
}

/**
 * A book the process keeps current from the book updates it receives (the gateway's market feed):
 * undefined while cold or after a seq gap, and the quote then reads the store.
 */
export type QuoteBookSource = (market: { chain_id: number; condition_id: string }, decimals: number) => YesBook | undefined;

export interface ClobQuoteResult {
  body: Record<string, unknown>;
  quote: ClobQuote;
}

const AVERAGE_DECIMALS = 6;

/** The amount in base units; zero or finer than the token's decimals is a VALIDATION_ERROR. */
export function amountUnits(amount: string, decimals: number): bigint {
  let units: bigint;
  try {
    units = parseUnitsStrict(amount, decimals);
  } catch {
    throw new AppError('VALIDATION_ERROR', `amount has more than ${decimals} fractional digits`);
  }
  if (units <= 0n) throw new AppError('VALIDATION_ERROR', 'amount must be greater than 0');
  return units;
}

export function decimalsOf(market: MarketRecord): number {
  return market.tokens[0]?.decimals ?? 18;
}

/** Both sides of the book with their seq; seq read before and after so that the sides agree. */
export async function readBook(store: MarketStore, market: MarketRecord): Promise<YesBook> {
  const key = { chain_id: market.chain_id, condition_id: market.condition_id };
  const readSeq = async () => (await store.bookStates.findOne(key).lean().exec())?.seq ?? 0;
  for (let attempt = 0; ; attempt += 1) {
    const before = await readSeq();
    const rows = await store.bookLevels.find({ ...key, remaining: { $nin: ['0', ''] } }).lean().exec();
    const after = await readSeq();
    if (before === after || attempt >= 4) {
      const level = (r: (typeof rows)[number]) => ({ ticks: r.ticks, remaining: BigInt(r.remaining) });
      return { bids: rows.filter((r) => r.side === 'BID').map(level), asks: rows.filter((r) => r.side === 'ASK').map(level), seq: after };
    }
  }
}

const price = (ticks: number | null) => (ticks === null ? null : ticksToPrice(ticks));

/** How much worse than the best price the average is, in bps of the best price. */
function impactBps(q: ClobQuote, side: 'BUY' | 'SELL'): number {
  if (q.beforeTicks === null || q.shares === 0n) return 0;
  const atBest = q.shares * BigInt(q.beforeTicks); // notional at the best price, in 1/100 units
  const actual = q.notional * 100n;
  const worse = side === 'BUY' ? actual - atBest : atBest - actual;
  return Number((worse * 10_000n) / atBest);
}

export async function quoteClobMarket(store: MarketStore, market: MarketRecord, request: QuoteRequest, books?: QuoteBookSource): Promise<ClobQuoteResult> {
  const decimals = decimalsOf(market);
  const amount = amountUnits(request.amount, decimals);
  const book = books?.(market, decimals) ?? await readBook(store, market);
  return quoteClobBook(market, request, amount, book);
}

/** The quote of `amount` (base units) against one book: pure, whichever way the book was read. */
export function quoteClobBook(market: MarketRecord, request: QuoteRequest, amount: bigint, book: YesBook): ClobQuoteResult {
  const decimals = decimalsOf(market);
  const q = quoteClob({ side: request.side, outcome: request.outcome, amount, feeRateBps: market.fee_rate_bps, bids: book.bids, asks: book.asks });
  const fmt = (units: bigint) => formatCanonical(units, decimals);
  const body: Record<string, unknown> = {
    kind: 'CLOB',
    chain_id: market.chain_id,
    condition_id: market.condition_id,
    outcome: request.outcome,
    side: request.side,
    amount: fmt(amount),
    ...(request.side === 'BUY' ? { expected_shares: fmt(q.shares) } : { expected_collateral: fmt(q.notional - q.fee) }),
    average_price: q.shares === 0n ? null : formatCanonical((q.notional * 10n ** BigInt(AVERAGE_DECIMALS)) / q.shares, AVERAGE_DECIMALS),
    price_before: price(q.beforeTicks),
    price_after: price(q.afterTicks),
    price_impact_bps: impactBps(q, request.side),
    fee: fmt(q.fee),
    block_number: null,
    book_seq: book.seq,
  };
  if (q.partial) Object.assign(body, { fillable_amount: fmt(q.filled), partial: true });
  return { body, quote: q };
}
