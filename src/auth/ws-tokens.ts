import { AppError } from '../errors';
import type { WsTokenModel } from '../db/models';
import { hashSecret, newSecret } from './secrets';

export const WS_TOKEN_TTL_SECONDS = 60;
/** Expired tokens older than this are swept when a new one is issued (FerretDB has no TTL index). */
const SWEEP_AFTER_MS = 10 * 60 * 1000;

export interface WsTokenDeps {
  model: WsTokenModel;
  pepper: string;
  now?: () => Date;
}

/** Issues a single-use token for the realtime gateway, valid 60 s, bound to `wallet`. Only its hash is stored. */
export async function issueWsToken(deps: WsTokenDeps, wallet: string): Promise<{ token: string; expires_in: number }> {
  const at = deps.now?.() ?? new Date();
  const token = newSecret();
  await deps.model.create({
    token_hash: hashSecret(deps.pepper, token),
    wallet,
    created_at: at,
    expires_at: new Date(at.getTime() + WS_TOKEN_TTL_SECONDS * 1000),
    used_at: null,
  });
  await deps.model.deleteMany({ expires_at: { $lt: new Date(at.getTime() - SWEEP_AFTER_MS) } }).exec();
  return { token, expires_in: WS_TOKEN_TTL_SECONDS };
}

/**
 * Consumes a WebSocket token: one atomic conditional update (unused and unexpired -> used), so
 * that of several gateway processes racing on the same token exactly one wins. Returns the
 * wallet; an unknown, used or expired token is AUTH_INVALID.
 */
export async function consumeWsToken(deps: WsTokenDeps, token: string): Promise<{ wallet: string }> {
  if (typeof token !== 'string' || token.length === 0 || token.length > 128) throw new AppError('AUTH_INVALID', 'Invalid WebSocket token');
  const at = deps.now?.() ?? new Date();
  const row = await deps.model
    .findOneAndUpdate(
      { token_hash: hashSecret(deps.pepper, token), used_at: null, expires_at: { $gt: at } },
      { $set: { used_at: at } },
      { new: true },
    )
    .lean()
    .exec();
  if (!row) throw new AppError('AUTH_INVALID', 'WebSocket token is unknown, used or expired');
  return { wallet: row.wallet };
}
