import { Connection, Model, Schema } from 'mongoose';
import { modelOf } from '../../db/models/model-of';

/**
 * One claimed `fs-idempotency-key` of one wallet (`_id` = `${wallet}:${key}`, so the claim is a
 * unique insert). `response` is stored once the winner finished; expiry is by `created_at`
 * (FerretDB has no TTL index): see src/orders/idempotency.ts.
 */
export interface IdempotencyKeyRecord {
  _id: string;
  wallet: string;
  key: string;
  body_hash: string;
  state: 'PENDING' | 'DONE';
  /** Random id of the request that holds the claim; a takeover of a stale claim changes it. */
  claim_id: string;
  response: Record<string, unknown> | null;
  created_at: Date;
  updated_at: Date;
}

const schema = new Schema<IdempotencyKeyRecord>(
  {
    _id: { type: String, required: true },
    wallet: { type: String, required: true },
    key: { type: String, required: true },
    body_hash: { type: String, required: true },
    state: { type: String, required: true, enum: ['PENDING', 'DONE'] },
    claim_id: { type: String, required: true },
    response: { type: Schema.Types.Mixed, default: null },
    created_at: { type: Date, required: true },
    updated_at: { type: Date, required: true },
  },
  { versionKey: false, minimize: false },
);
schema.index({ created_at: 1 });

export type IdempotencyKeyModel = Model<IdempotencyKeyRecord>;

export function createIdempotencyKeyModel(connection: Connection): IdempotencyKeyModel {
  return modelOf(connection, 'IdempotencyKey', schema, 'idempotency_keys');
}
