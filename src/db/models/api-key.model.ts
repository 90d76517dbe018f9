import { Connection, Model, Schema } from 'mongoose';
import { modelOf } from './model-of';

export const API_KEY_PERMISSIONS = ['read', 'trade'] as const;
export type ApiKeyPermission = (typeof API_KEY_PERMISSIONS)[number];

/** An API key. Only the peppered hash of its secret is stored; the secret itself never is. */
export interface ApiKeyRecord {
  key_id: string;
  /** Owner wallet, lower-case hex: the key acts for this wallet only. */
  wallet: string;
  /** hex HMAC-SHA256(API_KEY_PEPPER, secret). */
  secret_hash: string;
  permissions: ApiKeyPermission[];
  created_at: Date;
  last_used_at: Date | null;
  revoked_at: Date | null;
  /** When the secret was last issued (creation or regenerate). */
  secret_issued_at: Date;
}

const schema = new Schema<ApiKeyRecord>(
  {
    key_id: { type: String, required: true },
    wallet: { type: String, required: true },
    secret_hash: { type: String, required: true },
    permissions: { type: [String], required: true, enum: API_KEY_PERMISSIONS },
    created_at: { type: Date, required: true },
    last_used_at: { type: Date, default: null },
    revoked_at: { type: Date, default: null },
    secret_issued_at: { type: Date, required: true },
  },
  { versionKey: false },
);
schema.index({ key_id: 1 }, { unique: true });
schema.index({ wallet: 1, created_at: -1 });

export type ApiKeyModel = Model<ApiKeyRecord>;

export function createApiKeyModel(connection: Connection): ApiKeyModel {
  return modelOf(connection, 'ApiKey', schema, 'api_keys');
}
