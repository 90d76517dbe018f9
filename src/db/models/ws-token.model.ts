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
  created_at: Date;
  expires_at: Date;
  used_at: Date | null;
}

const schema = new Schema<WsTokenRecord>(
  {
    token_hash: { type: String, required: true },
    wallet: { type: String, required: true },
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
