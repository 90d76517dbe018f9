import { AppError } from '../errors';
import type { WsTokenModel, WsTokenUseModel } from '../db/models';
import { hashSecret, newSecret } from './secrets';

export const WS_TOKEN_TTL_SECONDS = 60;
/** Expired tokens older than this are swept when a new one is issued (FerretDB has no TTL index). */
const SWEEP_AFTER_MS = 10 * 60 * 1000;

export interface WsTokenDeps {
  model: WsTokenModel;
  uses: WsTokenUseModel;
  pepper: string;
  now?: () => Date;
}

/** The API key a token was issued with: its connection lives only while the key and that secret do. */
export interface WsTokenKey {
  id: string;
  /** When the key's secret in use was issued (a regenerate changes it). */
  secretIssuedAt: Date;
}

/**
 * Issues a single-use token for the realtime gateway, valid 60 s, bound to `wallet` (and to `key`
 * when an API key asked for it, or to the JWT's expiry, `authExpiresAt`, when a JWT did: the
 * gateway ends the connection then). Only its hash is stored.
 */
export async function issueWsToken(deps: WsTokenDeps, wallet: string, key?: WsTokenKey, authExpiresAt?: Date): Promise<{ token: string; expires_in: number }> {
  const at = deps.now?.() ?? new Date();
  const token = newSecret();
  await deps.model.create({
    token_hash: hashSecret(deps.pepper, token),
    wallet,
    key_id: key?.id ?? null,
    key_secret_issued_at: key?.secretIssuedAt ?? null,
    auth_expires_at: authExpiresAt ?? null,
    created_at: at,
    expires_at: new Date(at.getTime() + WS_TOKEN_TTL_SECONDS * 1000),
    used_at: null,
  });
  const old = new Date(at.getTime() - SWEEP_AFTER_MS);
  await deps.model.deleteMany({ expires_at: { $lt: old } }).exec();
  await deps.uses.deleteMany({ used_at: { $lt: old } }).exec();
  return { token, expires_in: WS_TOKEN_TTL_SECONDS };
}

/**
 * Consumes a WebSocket token and returns its wallet (and the API key it was issued with, if any:
 * the gateway closes the connection when that key is revoked or its secret regenerated); an
 * unknown, used or expired token is
 * AUTH_INVALID. Single use across processes comes from a unique insert into `ws_token_uses`
 * (exactly one of several racing consumers can insert); the token row's used_at is then set for
 * the record. A use row outlives its token's 60 s, so a swept token can never be replayed.
 */
export async function consumeWsToken(deps: WsTokenDeps, token: string): Promise<{ wallet: string; key?: WsTokenKey; authExpiresAt?: Date }> {
  const invalid = () => new AppError('AUTH_INVALID', 'WebSocket token is unknown, used or expired');
  if (typeof token !== 'string' || token.length === 0 || token.length > 128) throw invalid();
  const at = deps.now?.() ?? new Date();
  const tokenHash = hashSecret(deps.pepper, token);
  const row = await deps.model.findOne({ token_hash: tokenHash, used_at: null, expires_at: { $gt: at } }).lean().exec();
  if (!row) throw invalid();
  if (row.auth_expires_at && row.auth_expires_at <= at) throw new AppError('AUTH_INVALID', 'The JWT this WebSocket token was issued with has expired');
  try {
    await deps.uses.create({ token_hash: tokenHash, used_at: at });
  } catch (error) {
    if ((error as { code?: number })?.code === 11000) throw invalid();
    throw error;
  }
  await deps.model.updateOne({ token_hash: tokenHash }, { $set: { used_at: at } }).exec();
  return {
    wallet: row.wallet,
    ...(row.key_id && row.key_secret_issued_at ? { key: { id: row.key_id, secretIssuedAt: row.key_secret_issued_at } } : {}),
    ...(row.auth_expires_at ? { authExpiresAt: row.auth_expires_at } : {}),
  };
}
