/**
 * Groups refused because of blamed orders: those orders fail, the others' fills are marked
 * returned and the orders go back to their market (which puts them on the book again).
 */
import { findByIds } from '../../src/matching/collections';
import { fillIdsOf } from '../../src/matching/market-ids';
import type { PlaceableOrder } from '../../src/matching/payloads';
import { toPlaceable } from '../market/stored-orders';
import { returnsOf, type BlamedGroup, type BlamedOrder, type ReturnedOrder } from './blamed-returns';
import type { SettlementContext } from './context';
import type { FillStatusWrites } from './fill-status';
import type { OrderFinish } from './finish-orders';

export function createReturnedOrders({ c, afterSteps }: SettlementContext, { writeFillStatus }: FillStatusWrites, { finishWith }: OrderFinish) {
  /**
   * Groups whose match was refused because of `blamed` orders: every fill of theirs FAILED, those of
   * the other orders marked `returned`; the blamed orders end MATCH_FAILED with their reason. Answers
   * the units of the other orders to put back, and the blamed orders still resting (the market
   * workflow does both, as the book's only writer). Idempotent: recomputed from the fills.
   */
  async function unwindGroups(q: { groups: BlamedGroup[] }): Promise<{ returned: ReturnedOrder[]; failed: BlamedOrder[] }> {
    const tradeIds = q.groups.flatMap((g) => g.tradeIds);
    const blamed = q.groups.flatMap((g) => g.blamed.map((b) => ({ orderHash: b.orderHash.toLowerCase(), reason: b.reason })));
    const before = await afterSteps('settle.unwindFills', () => findByIds(c.fills, fillIdsOf(tradeIds)));
    const { returned } = returnsOf(before, blamed);
    const fills = await writeFillStatus({ groups: [{ tradeIds, txHash: '' }], status: 'FAILED', returnedOrders: returned.map((r) => r.hash) });
    const reasons = new Map(blamed.map((b) => [b.orderHash, b.reason]));
    const { resting } = await finishWith(fills.filter((f) => reasons.has(f.order_hash.toLowerCase())), true, reasons);
    return { returned, failed: resting.map((hash) => ({ orderHash: hash, reason: reasons.get(hash) ?? 'SETTLEMENT_FAILED' })) };
  }

  /**
   * The orders the market puts back (`unwindGroups`), as stored. One that ended meanwhile (cancelled,
   * expired) is not put back: its returned fills are final now, and what it held is released here.
   */
  async function loadReturnedOrders(q: { hashes: string[] }): Promise<ReturnedRow[]> {
    const rows = await afterSteps('settle.returnedOrders', () => findByIds(c.orders, q.hashes.map((h) => h.toLowerCase())));
    const ended = rows.filter((o) => !['OPEN', 'PARTIALLY_FILLED', 'MATCHED'].includes(o.status));
    if (ended.length > 0) await finishWith(await findByIds(c.fills, ended.flatMap((o) => o.fill_ids ?? [])), false);
    return rows.map((o) => ({
      ...toPlaceable(o), status: o.status, market_key: o.market_key, remaining: o.remaining_units, filled: o.filled_units, arrival: o.engine_arrival ?? null,
    }));
  }

  return { unwindGroups, loadReturnedOrders };
}

/** An order the market puts back, as stored (`arrival`: the one it rested with, null if it never rested). */
export interface ReturnedRow extends PlaceableOrder {
  status: string;
  market_key: string;
  remaining: string;
  filled: string;
  arrival: number | null;
}
