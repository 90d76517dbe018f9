/**
 * The orders a market's placement step loaded, kept in the worker until that step writes them
 * (a market step's activities are local activities: they run in the workflow's own worker
 * process). Nothing else writes an order between its load (hand-off PENDING) and its step's write:
 * cancels, expiry and status changes are later steps of the same workflow, and settlement only
 * touches orders with fills. So the write need not read those documents again.
 *
 * Only the last load of each market is kept, and its write takes it whole: a document is never
 * used past the step that loaded it. A miss (another worker, a restart, a retried write) reads
 * the store.
 */
import type { StoredOrder } from './collections';

const MAX_MARKETS = 1_000;

export class LoadedOrders {
  private readonly byMarket = new Map<string, Map<string, StoredOrder>>();

  keep(marketKey: string, orders: StoredOrder[]): void {
    if (this.byMarket.size >= MAX_MARKETS) this.byMarket.clear();
    this.byMarket.set(marketKey, new Map(orders.map((o) => [o.order_hash, o])));
  }

  /** Of `hashes`, the documents the market's last load kept, and the hashes it did not; the rest of that load is dropped. */
  take(marketKey: string, hashes: string[]): { found: StoredOrder[]; missing: string[] } {
    const kept = this.byMarket.get(marketKey);
    this.byMarket.delete(marketKey);
    const found: StoredOrder[] = [];
    const missing: string[] = [];
    for (const hash of hashes) {
      const doc = kept?.get(hash);
      if (doc) found.push(doc);
      else missing.push(hash);
    }
    return { found, missing };
  }
}
