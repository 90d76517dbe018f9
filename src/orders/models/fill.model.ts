import { Connection, Model, Schema } from 'mongoose';
import { modelOf } from '../../db/models/model-of';
import type { FillRecord as WrittenFill } from '../../matching/collections';

/**
 * A fill as the market workflow's activities write it (collection `fills`, one document per
 * (trade_id, order_hash), carrying the order's `wallet`). Order entry only reads it; the schema is
 * not strict so fields the writer adds later pass through untouched.
 */
/** The fields order entry reads, typed by the record the matching activities write. */
export type FillRecord = Pick<
  WrittenFill,
  'trade_id' | 'order_hash' | 'wallet' | 'condition_id' | 'chain_id' | 'role' | 'side' | 'outcome' | 'price' | 'size' | 'fee' | 'settlement_status' | 'tx_hash' | 'created_at'
>;

const schema = new Schema<FillRecord>(
  {
    trade_id: { type: String, required: true },
    order_hash: { type: String, required: true },
    wallet: { type: String, required: true },
    condition_id: { type: String, required: true },
    chain_id: { type: Number, required: true },
    role: { type: String, required: true },
    side: { type: String, required: true },
    outcome: { type: Number, required: true },
    price: { type: String, required: true },
    size: { type: String, required: true },
    fee: { type: String, default: '0' },
    settlement_status: { type: String, default: 'PENDING' },
    tx_hash: { type: String, default: '' },
    created_at: { type: Date, required: true },
  },
  { versionKey: false, strict: false },
);
schema.index({ wallet: 1, created_at: -1, trade_id: -1, order_hash: -1 });

export type FillReadModel = Model<FillRecord>;

/** Registered under its own model name so the writer's own `Fill` model can coexist on the connection. */
export function createFillReadModel(connection: Connection): FillReadModel {
  return modelOf(connection, 'OrderEntryFillView', schema, 'fills');
}
