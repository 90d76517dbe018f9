/**
 * Hand-off markers (collection `order_handoffs`, `_id` = order hash): order entry writes one per
 * order just before the order itself, and the hand-off sweeper reads them to find orders whose
 * hand-off to their market workflow was lost. The market step that takes an order deletes its
 * marker, so the collection only holds hand-offs in flight and lost ones, and the sweeper reads a
 * few rows each second instead of querying every order ever placed (a scan of the whole `orders`
 * collection on FerretDB, where only `_id` is indexed).
 */
import type { mongo } from 'mongoose';
import { onlyDuplicateKeys } from '../db/duplicate-keys';

export const HANDOFF_MARKERS = 'order_handoffs';

export interface HandoffMarker {
  _id: string;
  chain_id: number;
  condition_id: string;
  market_key: string;
  /** When the API wrote it, by its clock; the sweeper ages markers by its own sightings (marker-sightings.ts). */
  created_at: Date;
}

export function handoffMarkers(db: mongo.Db): mongo.Collection<HandoffMarker> {
  return db.collection<HandoffMarker>(HANDOFF_MARKERS);
}

/** Writes markers for orders about to be persisted; markers already there (a retry) are fine. */
export async function markHandoffs(
  markers: mongo.Collection<HandoffMarker>,
  orders: { order_hash: string; chain_id: number; condition_id: string; market_key: string; created_at: Date }[],
): Promise<void> {
  if (orders.length === 0) return;
  const docs = orders.map((o) => ({ _id: o.order_hash, chain_id: o.chain_id, condition_id: o.condition_id, market_key: o.market_key, created_at: o.created_at }));
  try {
    await markers.insertMany(docs, { ordered: false });
  } catch (error) {
    if (!onlyDuplicateKeys(error)) throw error;
  }
}
