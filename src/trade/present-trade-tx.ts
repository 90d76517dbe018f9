import type { TradeTxRecord } from '../db/models';

// Empty lists may be stored absent.

/** A saved transaction as GET /trade/save/{tx_hash} and the `user` channel show it. */
export function presentTradeTx(r: TradeTxRecord): Record<string, unknown> {
  return {
    chain_id: r.chain_id,
    tx_hash: r.tx_hash,
    wallet: r.wallet,
    status: r.status,
    status_reason: r.status_reason,
    block_number: r.block_number,
    condition_ids: r.condition_ids ?? [],
    events: (r.events ?? []).map((e) => ({ log_index: e.log_index, contract: e.contract, name: e.name, condition_id: e.condition_id, args: e.args })),
    trade_ids: r.trade_ids ?? [],
    created_at: new Date(r.created_at).toISOString(),
    updated_at: new Date(r.updated_at).toISOString(),
  };
}
