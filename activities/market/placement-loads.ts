/** The orders a placement step takes, and the lookup of orders by hash. */
import { findByIds, type StoredOrder } from '../../src/matching/collections';
import { marketKeyOf, type MarketRef } from '../../src/matching/market-ids';
import { placeableRowOf, type OrderLookup, type PlaceableRow, type PlacementLoad } from '../../src/matching/payloads';
import { fitsBatch, normalBatch, type StepDecision } from '../../src/matching/step-journal';
import type { MarketContext } from './context';
import { toPlaceable } from './stored-orders';

export function createPlacementLoads({ c, logger, priority, loaded }: MarketContext) {
  /**
   * The persisted orders to place, in the given order; already handed-over ones are skipped
   * (idempotent). A step claimed before (`q.step`, src/matching/step-journal.ts) gets the orders
   * that claim placed, whatever they have become since, and the claim's clock and batch length.
   */
  async function loadOrdersForPlacement(q: { market: MarketRef; hashes: string[]; step?: string }): Promise<PlacementLoad> {
    const key = marketKeyOf(q.market);
    // A step from here to the end of its write (`applyMatchBatch`); a load that places nothing
    // is followed by no write, so its step ends here.
    priority.stepStarted(key);
    const load = await loadPlaceable(q, key);
    if (load.rows?.length === 0) priority.stepEnded(key);
    return load;
  }

  async function loadPlaceable(q: { market: MarketRef; hashes: string[]; step?: string }, key: string): Promise<PlacementLoad> {
    const hashes = normalBatch(q.hashes);
    const [stored, claim] = await Promise.all([findByIds(c.orders, hashes), q.step ? c.steps.findOne({ _id: q.step }) : null]);
    const byHash = new Map(stored.map((o) => [o.order_hash, o]));
    if (claim && fitsBatch(claim, hashes)) return placementOf(key, claim, hashes.slice(0, claim.count), byHash);
    if (claim) logger.error({ market: q.market, step: q.step, claimed: claim.count, batch: hashes.length }, 'a placement step was claimed over another batch: decided afresh');
    const rows: PlaceableRow[] = [];
    const skipped: string[] = [];
    const placeable: StoredOrder[] = [];
    for (const hash of hashes) {
      const o = byHash.get(hash);
      if (o && o.market_key === key && o.handoff === 'PENDING' && o.status === 'OPEN') {
        rows.push(placeableRowOf(toPlaceable(o)));
        placeable.push(o);
      } else {
        skipped.push(hash);
      }
    }
    loaded.keep(key, placeable);
    return { rows, skipped };
  }

  /** The load of a step claimed before: the orders it placed (immutable fields), its clock and length. */
  function placementOf(key: string, claim: StepDecision, taken: string[], byHash: Map<string, StoredOrder>): PlacementLoad {
    const chosen = new Set(claim.placeable.map((i) => taken[i]));
    const placeable = taken.filter((h) => chosen.has(h)).map((h) => byHash.get(h)).filter((o): o is StoredOrder => o !== undefined);
    const rows = placeable.map((o) => placeableRowOf(toPlaceable(o)));
    const placed = new Set(placeable.map((o) => o.order_hash));
    loaded.keep(key, placeable);
    return { rows, skipped: taken.filter((h) => !placed.has(h)), decided: { at: claim.at, count: claim.count } };
  }

  async function lookupOrders(q: { hashes: string[] }): Promise<OrderLookup[]> {
    const rows = await c.orders.find({ _id: { $in: q.hashes.map((h) => h.toLowerCase()) } }, { projection: { order_hash: 1, wallet: 1, market_key: 1, status: 1, handoff: 1 } }).toArray();
    return rows.map((o) => ({ order_hash: o.order_hash, wallet: o.wallet, market_key: o.market_key, status: o.status, handoff: o.handoff }));
  }

  return { loadOrdersForPlacement, lookupOrders };
}
