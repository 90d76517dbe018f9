import type { mongo } from 'mongoose';
import { onlyDuplicateKeys, writeErrorsOf } from './duplicate-keys';

/**
 * Bulk writes go out in chunks: it bounds each command (FerretDB v1.24 hung on ~100 statements
 * before the patch in src/tools/ferretdb-patches.ts), and costs MongoDB a round trip per chunk.
 */
export const BULK_CHUNK = 50;

/**
 * Inserts documents keyed by `_id`; ones already there (a retried write) are left as they are, and
 * their ids returned.
 */
export async function insertNew<T extends mongo.Document>(collection: mongo.Collection<T>, docs: T[]): Promise<string[]> {
  const existing: string[] = [];
  for (let i = 0; i < docs.length; i += BULK_CHUNK) {
    try {
      await collection.insertMany(docs.slice(i, i + BULK_CHUNK) as mongo.OptionalUnlessRequiredId<T>[], { ordered: false });
    } catch (error) {
      if (!onlyDuplicateKeys(error)) throw error;
      for (const e of writeErrorsOf(error)) {
        const doc = e.index === undefined ? undefined : docs[i + e.index];
        if (doc) existing.push(String(doc._id));
      }
    }
  }
  return existing;
}

/**
 * Unordered bulk write that treats duplicate-key errors as "a newer row is already there".
 * Returns how many of its filters matched a document (guarded writes learn how many landed).
 */
export async function bulk<T extends mongo.Document>(collection: mongo.Collection<T>, ops: mongo.AnyBulkWriteOperation<T>[]): Promise<number> {
  return (await bulkCounts(collection, ops)).matched;
}

/** `bulk`, answering also how many of its upserts inserted a document. */
export async function bulkCounts<T extends mongo.Document>(collection: mongo.Collection<T>, ops: mongo.AnyBulkWriteOperation<T>[]): Promise<{ matched: number; upserted: number }> {
  let matched = 0;
  let upserted = 0;
  for (let i = 0; i < ops.length; i += BULK_CHUNK) {
    try {
      const result = await collection.bulkWrite(ops.slice(i, i + BULK_CHUNK), { ordered: false });
      matched += result.matchedCount;
      upserted += result.upsertedCount;
    } catch (error) {
      if (!onlyDuplicateKeys(error)) throw error;
      const result = (error as { result?: { matchedCount?: number; upsertedCount?: number } }).result;
      matched += result?.matchedCount ?? 0;
      upserted += result?.upsertedCount ?? 0;
    }
  }
  return { matched, upserted };
}
