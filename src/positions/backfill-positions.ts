import type { mongo } from 'mongoose';
import type { Logger } from '../logging/logger';
import { insertMissingRows, POSITIONS_COLLECTION, type PositionFill, type PositionRow } from './position-rows';

/** The marker (collection `migrations`) of a store whose fills before position rows have their rows. */
const MARKER = 'positions-from-fills';

/**
 * Once per store, before the worker records any fill: the rows of positions whose fills were
 * recorded before rows were kept, folded from every fill (one read of the fills collection). A row
 * already there is kept: from the first backfill on, the rows follow every fill.
 */
export async function backfillPositions(db: mongo.Db, logger: Logger): Promise<void> {
  const migrations = db.collection<{ _id: string; at: Date; rows: number }>('migrations');
  if (await migrations.findOne({ _id: MARKER })) return;
  const started = Date.now();
  const fills = await db.collection<PositionFill>('fills').find({}, {
    projection: { _id: 0, trade_id: 1, order_hash: 1, wallet: 1, chain_id: 1, condition_id: 1, outcome: 1, side: 1, price: 1, size: 1, fee: 1, settlement_status: 1, created_at: 1 },
  }).toArray();
  const markets = await db.collection<{ chain_id: number; condition_id: string; tokens?: { outcome: number; decimals: number }[] }>('markets')
    .find({}, { projection: { _id: 0, chain_id: 1, condition_id: 1, tokens: 1 } }).toArray();
  const decimals = new Map(markets.flatMap((m) => (m.tokens ?? []).map((t) => [`${m.chain_id}:${m.condition_id}:${t.outcome}`, t.decimals])));
  const rows = await insertMissingRows(db.collection<PositionRow>(POSITIONS_COLLECTION), fills, (f) => decimals.get(`${f.chain_id}:${f.condition_id}:${f.outcome}`));
  await migrations.updateOne({ _id: MARKER }, { $setOnInsert: { at: new Date(), rows } }, { upsert: true });
  logger.info({ fills: fills.length, rows, ms: Date.now() - started }, 'position rows folded from the recorded fills');
}
