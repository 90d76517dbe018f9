import { Connection, Model, Schema } from 'mongoose';
import { modelOf } from './model-of';

/**
 * A WebSocket token: single use, short-lived, bound to a wallet. Stored in MongoDB (hashed) so
 * that every API and gateway process agrees on whether it was used.
 */
export interface WsTokenRecord {
  /** hex HMAC-SHA256(API_KEY_PEPPER, token). */
  token_hash: string;
  wallet: string;
  /** The API key the token was issued with (null: a JWT), and when that key's secret then in use was issued. */
  key_id: string | null;
  key_secret_issued_at: Date | null;
  /** The JWT the token was issued with expires then (null: an API key); the gateway closes the connection at it. */
  auth_expires_at?: Date | null;
  created_at: Date;
  expires_at: Date;
  used_at: Date | null;
}

const schema = new Schema<WsTokenRecord>(
  {
    token_hash: { type: String, required: true },
    wallet: { type: String, required: true },
    key_id: { type: String, default: null },
    key_secret_issued_at: { type: Date, default: null },
    auth_expires_at: { type: Date, default: null },
    created_at: { type: Date, required: true },
    expires_at: { type: Date, required: true },
    used_at: { type: Date, default: null },
  },
  { versionKey: false },
);
schema.index({ token_hash: 1 }, { unique: true });
// FerretDB has no TTL indexes: issuing a token also sweeps old ones, using this index.
schema.index({ expires_at: 1 });

export type WsTokenModel = Model<WsTokenRecord>;

export function createWsTokenModel(connection: Connection): WsTokenModel {
  return modelOf(connection, 'WsToken', schema, 'ws_tokens');
}

/**
 * One row per consumed token. The unique index on token_hash is what makes consumption single
 * use across processes: FerretDB's findOneAndUpdate is not atomic under concurrency, a unique
 * insert is.
 */
export interface WsTokenUseRecord {
  token_hash: string;
  used_at: Date;
}

const useSchema = new Schema<WsTokenUseRecord>(
  { token_hash: { type: String, required: true }, used_at: { type: Date, required: true } },
  { versionKey: false },
);
useSchema.index({ token_hash: 1 }, { unique: true });

export type WsTokenUseModel = Model<WsTokenUseRecord>;

export function createWsTokenUseModel(connection: Connection): WsTokenUseModel {
  return modelOf(connection, 'WsTokenUse', useSchema, 'ws_token_uses');
}
