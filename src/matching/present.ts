/**
 * Wire shapes the matcher publishes (decisions section 7), built from the stored rows. Money is
 * canonical decimal strings: shares from base units with the market's D, prices from ticks.
 */
import { formatCanonical } from '../money';
import { statusReasonOf } from '../orders/status-reasons';
import type { FillRecord, StoredOrder } from './collections';

export function priceOfTicks(ticks: number): string {
  return formatCanonical(BigInt(ticks), 2);
}

export function presentOrder(o: StoredOrder): Record<string, unknown> {
  return {
    order_hash: o.order_hash, client_order_id: o.client_order_id ?? null, condition_id: o.condition_id, chain_id: o.chain_id, side: o.side, outcome: o.outcome,
    order_type: o.order_type, post_only: o.post_only === true, price: o.price, size: o.size, remaining_size: o.remaining_size, status: o.status,
    status_reason: statusReasonOf(o), token_id: o.token_id, fee_rate_bps: o.fee_rate_bps, expiration: o.expiration,
    book_added_at: o.book_added_at ? new Date(o.book_added_at).toISOString() : null,
    created_at: new Date(o.created_at).toISOString(), updated_at: new Date(o.updated_at).toISOString(),
  };
}

export function presentFill(f: FillRecord): Record<string, unknown> {
  return {
    trade_id: f.trade_id, order_hash: f.order_hash, condition_id: f.condition_id, chain_id: f.chain_id, role: f.role,
    side: f.side, outcome: f.outcome, price: f.price, size: f.size, fee: f.fee, settlement_status: f.settlement_status,
    tx_hash: f.tx_hash, created_at: new Date(f.created_at).toISOString(),
  };
}

/**
 * A settled print as REST's GET /markets/{id}/trades shows it (the `trades` socket channel): the
 * stored trade's YES price and match time, the size in shares from its taker fill.
 */
export function presentSettledTrade(trade: { _id?: unknown; price?: unknown; created_at?: unknown }, takerFill: { trade_id: string; chain_id: number; condition_id: string; size: string }): Record<string, unknown> {
  return {
    trade_id: takerFill.trade_id, condition_id: takerFill.condition_id, chain_id: takerFill.chain_id, price: String(trade.price),
    size: takerFill.size, created_at: new Date(trade.created_at as Date).toISOString(),
  };
}

/** Standalone ticker (snake_case, decimal strings). Display price: last trade, else the mid, else null. */
export function presentTicker(market: { chain_id: number; condition_id: string }, t: { bestBid: number | null; bestAsk: number | null; lastPrice: number | null }, at: number): Record<string, unknown> {
  const spread = t.bestBid !== null && t.bestAsk !== null ? t.bestAsk - t.bestBid : null;
  const mid = t.bestBid !== null && t.bestAsk !== null ? Math.round((t.bestBid + t.bestAsk) / 2) : null;
  const display = t.lastPrice ?? mid;
  const dec = (ticks: number | null) => (ticks === null ? null : priceOfTicks(ticks));
  return {
    condition_id: market.condition_id, chain_id: market.chain_id, best_bid: dec(t.bestBid), best_ask: dec(t.bestAsk),
    last_price: dec(t.lastPrice), spread: dec(spread), display_price_yes: dec(display),
    display_price_no: dec(display === null ? null : 100 - display), timestamp: new Date(at).toISOString(),
  };
}
