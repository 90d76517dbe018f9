/**
 * What each order gives and gets in a `matchOrders` call, from the engine's trades.
 *
 * The contract takes, for every order of a match, an `OrderFill`:
 *   making = what the order gives, in its maker-amount units (collateral wei for a BUY, token wei for a SELL)
 *   taking = what it gets (token wei for a BUY, collateral wei for a SELL)
 * and checks them (signed price by exact cross-multiplication, remaining, conservation per leg); it
 * computes neither. Fees are not part of a fill: the contract derives them from the same amounts
 * (decisions section 3), equal to the engine's `fee` of each leg.
 *
 * From one engine leg (`FillLeg`: `size` tokens, `collateral` = size * price / 100, exact because
 * every fill is a whole number of lots):
 *   BUY  -> { making: collateral, taking: size }
 *   SELL -> { making: size,       taking: collateral }
 *
 * Entry point for settlement: `matchSubmissionFromTrades(trades, signedOrderOf)` turns the TRADE
 * events of one taker order into the `MatchSubmission` for `ChainPort.submitMatch`.
 */
import type { SideName, SignedOrder } from '../signing';
import type { MatchSubmission, OrderFill } from './submit-match';

/** The parts of an engine `FillLeg` (src/engine/types.ts) that settlement needs. */
export interface SettlementLeg {
  orderHash: string;
  side: SideName;
  /** Outcome tokens bought or sold, base units (a lot multiple). */
  size: bigint;
  /** Collateral paid (BUY) or received (SELL), exact: size * price / 100. */
  collateral: bigint;
}

/** The parts of an engine TRADE event that settlement needs. */
export interface SettlementTrade {
  kind: 'TRANSFER' | 'MINT' | 'MERGE';
  size: bigint;
  maker: SettlementLeg;
  taker: SettlementLeg;
}

/** Both amounts of one order's leg. */
export function orderFillOfLeg(leg: Pick<SettlementLeg, 'side' | 'size' | 'collateral'>): OrderFill {
  return leg.side === 'BUY' ? { making: leg.collateral, taking: leg.size } : { making: leg.size, taking: leg.collateral };
}

/**
 * Both amounts of a fill of `shares` token wei at the order's own price `priceTicks` (the maker's
 * price for both legs of a trade; for the taker, the complement's in a mint or merge). Throws when
 * `shares * priceTicks / 100` is not a whole number of wei (never for whole lots).
 */
export function orderFillFor(side: SideName, shares: bigint, priceTicks: number): OrderFill {
  const product = shares * BigInt(priceTicks);
  if (product % 100n !== 0n) throw new RangeError(`fill of ${shares} at ${priceTicks} ticks is not a whole amount of collateral`);
  return orderFillOfLeg({ side, size: shares, collateral: product / 100n });
}

/** What the order gives (`making`) for `shares` at `priceTicks`: collateral for a BUY, tokens for a SELL. */
export function fillAmountFor(side: SideName, shares: bigint, priceTicks: number): bigint {
  return orderFillFor(side, shares, priceTicks).making;
}

/** The sum of the taker's legs: its `takerFill`. */
export function sumFills(fills: readonly OrderFill[]): OrderFill {
  return fills.reduce((a, b) => ({ making: a.making + b.making, taking: a.taking + b.taking }), { making: 0n, taking: 0n });
}

/**
 * The `matchOrders` arguments for the TRADE events of one taker order: one maker leg per trade,
 * in the given order, and the taker's fill as the sum of its legs. `signedOrderOf` returns the
 * signed order (with signature) for an order hash. Throws a RangeError when the trades do not share
 * one taker, or when a trade does not conserve assets the way the contract checks (transfer: same
 * tokens and collateral; mint: collaterals sum to the size; merge: receipts sum to the size).
 */
export function matchSubmissionFromTrades(
  trades: readonly SettlementTrade[],
  signedOrderOf: (orderHash: string) => SignedOrder,
): MatchSubmission {
  if (trades.length === 0) throw new RangeError('matchSubmissionFromTrades needs at least one trade');
  const takerHash = trades[0].taker.orderHash;
  const takerLegs: OrderFill[] = [];
  const makerFills: OrderFill[] = [];
  for (const trade of trades) {
    if (trade.taker.orderHash !== takerHash) throw new RangeError(`trades of two takers: ${takerHash} and ${trade.taker.orderHash}`);
    checkConservation(trade);
    makerFills.push(orderFillOfLeg(trade.maker));
    takerLegs.push(orderFillOfLeg(trade.taker));
  }
  return {
    taker: signedOrderOf(takerHash),
    makers: trades.map((trade) => signedOrderOf(trade.maker.orderHash)),
    takerFill: sumFills(takerLegs),
    makerFills,
  };
}

function checkConservation({ kind, size, maker, taker }: SettlementTrade): void {
  const ok = maker.size === size && taker.size === size && (kind === 'TRANSFER'
    ? maker.side !== taker.side && maker.collateral === taker.collateral
    : maker.side === taker.side && maker.side === (kind === 'MINT' ? 'BUY' : 'SELL') && maker.collateral + taker.collateral === size);
  if (!ok) throw new RangeError(`trade ${maker.orderHash} x ${taker.orderHash} (${kind}) does not conserve assets`);
}
