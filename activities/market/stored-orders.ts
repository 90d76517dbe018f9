/** Stored orders as the engine takes them, and what an order still holds back. */
import { reserveOf } from '../../src/engine';
import type { StoredOrder } from '../../src/matching/collections';
import type { PlaceableOrder, RestingOrderRow } from '../../src/matching/payloads';

export const OPEN_STATUSES = ['OPEN', 'PARTIALLY_FILLED'];

/**
 * Units a stored order still holds back: the engine's `reserveOf` (with the most fee a BUY can
 * owe) of what rests plus what matched and is not settled yet (never below 0: a step may not have
 * seen a settlement's units). Both writers of the row, the market's steps and settlement, use it.
 * (Without the fee, a BUY's hold would fall by its fee after its first step, and the wallet could
 * place orders on money the exchange will take in fees, whose settlement would then fail.)
 */
export function reservedUnitsOf(o: Pick<StoredOrder, 'side' | 'price_ticks' | 'fee_rate_bps'>, resting: bigint, unsettled: bigint): bigint {
  return reserveOf(o.side, o.price_ticks, resting + (unsettled > 0n ? unsettled : 0n), Number(o.fee_rate_bps ?? 0));
}

export function restingRowOf(o: StoredOrder): RestingOrderRow {
  return { ...toPlaceable(o), remaining: o.remaining_units, filled: o.filled_units, arrival: Number(o.engine_arrival) };
}

export function toPlaceable(o: StoredOrder): PlaceableOrder {
  return {
    hash: o.order_hash, maker: o.maker, taker: o.taker, side: o.side, outcome: o.outcome, orderType: o.order_type,
    price: o.price_ticks, size: o.size_units, makerAmount: o.maker_amount, takerAmount: o.taker_amount,
    expiration: Number(o.expiration), feeRateBps: o.fee_rate_bps, ...(o.post_only ? { postOnly: true as const } : {}),
  };
}
