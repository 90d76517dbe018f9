import { Connection, Model, Schema } from 'mongoose';
import { modelOf } from '../db/models/model-of';
import { POSITIONS_COLLECTION, type PositionRow } from './position-rows';

/**
 * Position rows as order entry reads them (the worker writes them, src/positions/position-rows.ts).
 * Not strict: the reader declares only what it filters and sorts on.
 */
const schema = new Schema<PositionRow>(
  {
    _id: { type: String, required: true },
    wallet: { type: String, required: true },
    chain_id: { type: Number, required: true },
    condition_id: { type: String, required: true },
    outcome: { type: Number, required: true },
    key: { type: String, required: true },
    first_at: { type: Date, required: true },
    live: { type: Number, required: true },
  },
  { versionKey: false, strict: false },
);
// The list's order per wallet (newest position first): a page reads its rows and no more.
schema.index({ wallet: 1, first_at: -1, key: -1 });

export type PositionReadModel = Model<PositionRow>;

export function createPositionReadModel(connection: Connection): PositionReadModel {
  return modelOf(connection, 'OrderEntryPositionView', schema, POSITIONS_COLLECTION);
}
