/**
 * The database commands of a placement, shared by the process's concurrent requests: the markers,
 * the insert and (for the few hashes the reservation refused or the insert found taken) the lookup
 * of stored orders each go out as one command for every request that arrived while the previous
 * one was in flight (`coalescingLoader`). Under a stream of single-order POSTs this is what keeps
 * the database at a few commands per batch instead of several per order.
 */
import type { mongo } from 'mongoose';
import type { OrderRecord } from '../ports/order-record';
import { coalescingLoader } from '../db/coalescing-loader';
import { insertEach } from '../db/insert-each';
import { handoffMarkers, markHandoffs } from '../matching/handoff-markers';
import type { OrderModel } from './models';

export interface PlacementWrites {
  /**
   * Of `hashes`, the orders already stored, with what each still reserves (`reserved_units`): a
   * primary-key lookup (`_id` is the order hash).
   */
  stored(hashes: string[]): Promise<Map<string, bigint>>;
  /** Hand-off markers for orders about to be inserted (markers already there are fine). */
  mark(records: OrderRecord[]): Promise<void>;
  /**
   * Inserts the orders; per record, true if inserted, false if the order hash was taken, or the
   * error of that record alone (the others of the command were written).
   */
  insert(records: OrderRecord[]): Promise<(boolean | Error)[]>;
  /**
   * Deletes the markers of orders this request will not insert (refused after their markers went
   * out). A marker is per order hash, so another request placing the same signed order may count
   * on it: an order found stored after the delete gets its marker back.
   */
  unmark(records: OrderRecord[]): Promise<void>;
}

export function createPlacementWrites(orders: OrderModel): PlacementWrites {
  const stored = coalescingLoader(async (hashes: readonly string[]) => {
    const found = await orders.find({ _id: { $in: [...new Set(hashes)] } }, { _id: 1, reserved_units: 1 }).lean();
    const reserved = new Map(found.map((o) => [String(o._id), BigInt(o.reserved_units ?? '0')]));
    return hashes.map((h) => reserved.get(h) ?? null);
  });
  const markers = coalescingLoader(async (records: readonly OrderRecord[]) => {
    await markHandoffs(handoffMarkers(orders.db.db as mongo.Db), [...records]);
    return records.map(() => true);
  });
  // A duplicate lost the unique-index race; any other error fails that order's request alone.
  const inserts = coalescingLoader((records: readonly OrderRecord[]) =>
    insertEach(() => orders.insertMany(records.map((r) => ({ _id: r.order_hash, ...r })), { ordered: false, lean: true }), records.length, 'order'));
  return {
    stored: async (hashes) => {
      const found = await stored.loadMany(hashes);
      const out = new Map<string, bigint>();
      hashes.forEach((h, i) => {
        const reserved = rethrow(found[i]);
        if (reserved !== null) out.set(h, reserved);
      });
      return out;
    },
    mark: async (records) => {
      for (const r of await markers.loadMany(records)) rethrow(r);
    },
    insert: (records) => inserts.loadMany(records),
    unmark: async (records) => {
      if (records.length === 0) return;
      const markers = handoffMarkers(orders.db.db as mongo.Db);
      await markers.deleteMany({ _id: { $in: records.map((r) => r.order_hash) } });
      // Read after the delete: an order inserted before it is seen here and marked again; one
      // inserted after it was marked after it too (a request marks before it inserts) unless its
      // mark came first, and that request marks again should its own hand-off fail (place-orders.ts).
      const found = await stored.loadMany(records.map((r) => r.order_hash));
      await markHandoffs(markers, records.filter((_, i) => rethrow(found[i]) !== null));
    },
  };
}

function rethrow<V>(value: V | Error): V {
  if (value instanceof Error) throw value;
  return value;
}
