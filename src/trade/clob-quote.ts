/**
 * A CLOB quote: the current book walked as a MARKET order of the amount would take it, with the
 * engine's own money rules (lot-sized fills at the maker's price, fee on min(p, 1 - p)). Pure and
 * integer-only; prices are own-outcome ticks (1..100), sizes and collateral base units.
 */
import { collateralOf, feeOf, lotFloor, MAX_TICK } from '../engine/amounts';
import type { YesLevel } from '../ports/yes-book';


export interface ClobQuoteInput {
  side: 'BUY' | 'SELL';
  outcome: 0 | 1;
  /** BUY: collateral to spend, fee included; SELL: shares to sell (base units). */
  amount: bigint;
  feeRateBps: number;
  bids: YesLevel[];
  asks: YesLevel[];
}

export interface ClobQuote {
  shares: bigint;
  /** Collateral paid (BUY) or received (SELL) at the makers' prices, before the fee. */
  notional: bigint;
  fee: bigint;
  /** What of `amount` the book took: collateral spent with the fee (BUY) or shares sold (SELL). */
  filled: bigint;
  /** True when the book ran out before the amount did. */
  partial: boolean;
  beforeTicks: number | null;
  afterTicks: number | null;
  /** The deepest level the walk touched (own-outcome ticks), null when nothing fills. */
  worstTicks: number | null;
}

const FEE_SCALE = 1_000_000n; // 10_000 bps * 100 ticks

/**
 * The opposite side in own-outcome ticks, best first. BUY YES takes asks, BUY NO takes bids (an ask
 * at 1 - p in YES terms), SELL YES takes bids, SELL NO takes asks.
 */
export function takenLevels(input: Pick<ClobQuoteInput, 'side' | 'outcome' | 'bids' | 'asks'>): YesLevel[] {
  const takesAsks = (input.side === 'BUY') === (input.outcome === 1);
  const levels = takesAsks ? input.asks : input.bids;
  const own = levels.map((l) => ({ ticks: input.outcome === 1 ? l.ticks : MAX_TICK - l.ticks, remaining: lotFloor(l.remaining) }));
  // Best for the taker first: cheapest to buy, dearest to sell.
  return own.filter((l) => l.remaining > 0n).sort((a, b) => (input.side === 'BUY' ? a.ticks - b.ticks : b.ticks - a.ticks));
}

/** Shares of at most `room` whose collateral plus fee at `ticks` fit in `budget`. */
function affordable(budget: bigint, ticks: number, feeRateBps: number, room: bigint): bigint {
  const perShare = BigInt(ticks) * 10_000n + BigInt(feeRateBps) * BigInt(Math.min(ticks, MAX_TICK - ticks));
  const shares = lotFloor((budget * FEE_SCALE) / perShare);
  return shares < room ? shares : room;
}

export function quoteClob(input: ClobQuoteInput): ClobQuote {
  const levels = takenLevels(input);
  let left = input.side === 'BUY' ? input.amount : lotFloor(input.amount);
  let shares = 0n;
  let notional = 0n;
  let fee = 0n;
  let worstTicks: number | null = null;
  let afterTicks: number | null = null;
  for (let i = 0; i < levels.length; i += 1) {
    const level = levels[i];
    const take = input.side === 'BUY' ? affordable(left, level.ticks, input.feeRateBps, level.remaining) : left < level.remaining ? left : level.remaining;
    if (take === 0n) {
      afterTicks = level.ticks;
      break;
    }
    const paid = collateralOf(take, level.ticks);
    const levelFee = feeOf(take, level.ticks, input.feeRateBps);
    shares += take;
    notional += paid;
    fee += levelFee;
    left -= input.side === 'BUY' ? paid + levelFee : take;
    worstTicks = level.ticks;
    if (take < level.remaining) {
      afterTicks = level.ticks;
      break;
    }
    afterTicks = levels[i + 1]?.ticks ?? null;
  }
  const exhausted = levels.length === 0 || (afterTicks === null && worstTicks !== null);
  const filled = input.side === 'BUY' ? input.amount - left : lotFloor(input.amount) - left;
  return {
    shares,
    notional,
    fee,
    filled,
    partial: exhausted && left > 0n,
    beforeTicks: levels[0]?.ticks ?? null,
    afterTicks,
    worstTicks,
  };
}
