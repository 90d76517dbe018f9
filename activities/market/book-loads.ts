/** What a run rebuilds its book from: resting orders, the carried-over book, pending settlements. */
import { findByIds, type StoredOrder } from '../../src/matching/collections';
import { batchesOfPendingTakerFills, type PendingSettlementsPage } from '../../src/matching/pending-settlements';
import type { RestingPage } from '../../src/matching/payloads';
import type { MarketContext } from './context';
import { OPEN_STATUSES, restingRowOf } from './stored-orders';

export function createBookLoads({ c }: MarketContext) {
  /** Resting orders of a market in arrival order, a page at a time (each page well under 2 MB). */
  async function loadRestingPage(q: { marketKey: string; afterArrival: number; limit: number }): Promise<RestingPage> {
    const rows = await c.orders
      .find({ market_key: q.marketKey, status: { $in: OPEN_STATUSES as StoredOrder['status'][] }, handoff: 'ACCEPTED', engine_arrival: { $gt: q.afterArrival } })
      .sort({ engine_arrival: 1 })
      .limit(q.limit)
      .toArray();
    const orders = rows.map(restingRowOf);
    return { orders, next: rows.length < q.limit ? null : orders[orders.length - 1].arrival };
  }

  /**
   * The resting orders among `hashes` (the book a previous run carried over, RESTING_CARRIED), in
   * arrival order: the same filter as `loadRestingPage`, addressed by `_id`, so a new run rebuilds
   * without reading every order of the collection.
   */
  async function loadCarriedResting(q: { marketKey: string; hashes: string[] }): Promise<RestingPage> {
    const rows = (await findByIds(c.orders, q.hashes))
      .filter((o) => o.market_key === q.marketKey && OPEN_STATUSES.includes(o.status) && o.handoff === 'ACCEPTED')
      .sort((a, b) => Number(a.engine_arrival) - Number(b.engine_arrival));
    const orders = rows.map(restingRowOf);
    return { orders, next: null };
  }

  /**
   * The market's settlement batches with taker fills still PENDING: a run started cold (after its
   * previous run was terminated) starts those no child is settling (src/matching/pending-settlements.ts).
   * A query by market and status: a scan of the fills on FerretDB, made only by such a run. One
   * page at a time, from the batch whose first trade is numbered `from`.
   */
  async function loadPendingSettlements(q: { marketKey: string; from: number }): Promise<PendingSettlementsPage> {
    const fills = await c.fills
      .find({ market_key: q.marketKey, role: 'taker', settlement_status: 'PENDING' }, { projection: { trade_id: 1, order_hash: 1, settlement_batch: 1 } })
      .toArray();
    return batchesOfPendingTakerFills(fills, q.from);
  }

  return { loadRestingPage, loadCarriedResting, loadPendingSettlements };
}
