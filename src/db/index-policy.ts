import type { Connection, Schema } from 'mongoose';

/**
 * Which indexes a store gets. FerretDB 1.x answers queries through its `_id` index only (its SQLite
 * backend narrows nothing else by an index; see docs/foundation.md, "FerretDB patches"), yet SQLite
 * recomputes every indexed JSON expression of a document on each insert and update: ~18% of
 * FerretDB's CPU under the e2e bench went to indexes no query reads. On such a store only unique
 * indexes are created (they are constraints, not speed); on MongoDB every index is.
 */
const uniqueOnly = new WeakSet<Connection>();

/** Looks at the server behind `connection` once, right after it connects. */
export async function detectIndexPolicy(connection: Connection): Promise<void> {
  const db = connection.db;
  if (!db) return;
  const info = await db.admin().command({ buildInfo: 1 });
  if (typeof info.ferretdbVersion === 'string' && info.ferretdbVersion.startsWith('v1.')) uniqueOnly.add(connection);
}

/** Whether the store reads secondary indexes, i.e. whether non-unique indexes are worth writing. */
export function secondaryIndexesUsed(connection: Connection): boolean {
  return !uniqueOnly.has(connection);
}

/** Per schema: the field every writer sets equal to `_id` (e.g. orders' `order_hash`). */
const idFields = new WeakMap<Schema, string>();

/**
 * Declares that `field` always equals `_id` in `schema`'s documents, so its unique index repeats
 * the primary key's: a store that reads no secondary index is spared it (SQLite still computed it
 * on every write of the document).
 */
export function sameAsId<T>(schema: Schema<T>, field: string): void {
  idFields.set(schema as Schema, field);
}

/**
 * `schema` as the store should index it: where no secondary index is read, only its unique
 * indexes (constraints, not speed), and of those not one that repeats `_id` (`sameAsId`).
 */
export function schemaForStore<T>(connection: Connection, schema: Schema<T>): Schema<T> {
  if (secondaryIndexesUsed(connection)) return schema;
  const kept = schema.clone();
  kept.clearIndexes();
  const idField = idFields.get(schema as Schema);
  for (const [fields, options] of schema.indexes()) {
    const keys = Object.keys(fields);
    if (!options?.unique || (keys.length === 1 && keys[0] === idField)) continue;
    kept.index(fields, options);
  }
  return kept;
}
