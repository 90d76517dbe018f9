/** Wire shapes of a fill (REST and the user channel) and of a settled print (REST and the trades channel). */
import type { FillRecord } from '../matching/collections';

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
