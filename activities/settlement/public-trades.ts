/** The public trade rows of final taker fills (collection `trades`), each printed once. */
import { insertNew } from '../../src/db/bulk-writes';
import { findByIds, type FillRecord } from '../../src/matching/collections';
import { FINAL, NOT_FINAL, type FillStatus, type SettlementContext } from './context';

/** A public trade row (collection `trades`, `_id` = trade id; sizes in base units). */
export interface TradeRow {
  _id: string;
  trade_id: string;
  chain_id: number;
  condition_id: string;
  price: string;
  size: string;
  settlement_status: FillStatus;
  created_at: Date;
}

export function createPublicTrades({ c }: SettlementContext) {
  /**
   * Writes the public trade of each final taker fill, with the fill's status, and returns the ones
   * this write confirmed, to print: a trade already written (a retried write) prints nothing twice.
   * Trades of fills written before prints waited for settlement already have their row (PENDING,
   * from their step): it takes the fill's status.
   */
  async function writeTrades(fills: FillRecord[]): Promise<TradeRow[]> {
    const takers = fills.filter((f) => f.role === 'taker' && FINAL.includes(f.settlement_status));
    const statusOf = new Map(takers.map((f) => [f.trade_id, f.settlement_status]));
    const rows: TradeRow[] = takers.filter((f) => f.trade_price !== undefined).map((f) => ({
      _id: f.trade_id, trade_id: f.trade_id, chain_id: f.chain_id, condition_id: f.condition_id, price: f.trade_price!,
      size: f.size_units, settlement_status: f.settlement_status, created_at: f.created_at,
    }));
    const there = new Set(await insertNew(c.trades, rows));
    for (const f of takers) if (f.trade_price === undefined) there.add(f.trade_id);
    const earlier = there.size > 0 ? (await findByIds(c.trades, [...there])).filter((t) => !FINAL.includes(t.settlement_status as FillStatus)) : [];
    for (const status of FINAL) {
      const ids = earlier.map((t) => String(t._id)).filter((id) => statusOf.get(id) === status);
      if (ids.length > 0) await c.trades.updateMany({ _id: { $in: ids }, ...NOT_FINAL }, { $set: { settlement_status: status } });
    }
    const confirmed = (id: string) => statusOf.get(id) === 'CONFIRMED';
    return [...rows.filter((r) => !there.has(r._id) && confirmed(r._id)), ...(earlier as TradeRow[]).filter((t) => confirmed(String(t._id)))];
  }

  return { writeTrades };
}

export type PublicTrades = ReturnType<typeof createPublicTrades>;
