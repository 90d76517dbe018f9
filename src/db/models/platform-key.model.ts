import { Connection, Model, Schema } from 'mongoose';
import { modelOf } from './model-of';

/** A partner app's key for the /trade API. Not tied to a wallet; only the peppered hash of its secret is stored. */
export interface PlatformKeyRecord {
  key_id: string;
  name: string;
  /** hex HMAC-SHA256(API_KEY_PEPPER, secret). */
  secret_hash: string;
  created_at: Date;
  revoked_at: Date | null;
}

const schema = new Schema<PlatformKeyRecord>(
  {
    key_id: { type: String, required: true },
    name: { type: String, required: true },
    secret_hash: { type: String, required: true },
    created_at: { type: Date, required: true },
    revoked_at: { type: Date, default: null },
  },
  { versionKey: false },
);
schema.index({ key_id: 1 }, { unique: true });
schema.index({ created_at: -1 });

export type PlatformKeyModel = Model<PlatformKeyRecord>;

export function createPlatformKeyModel(connection: Connection): PlatformKeyModel {
  return modelOf(connection, 'PlatformKey', schema, 'platform_keys');
}
