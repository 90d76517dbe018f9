import type { Socket } from 'socket.io';
import { ErrorCode, ERROR_TABLE, isAppError } from '../errors';
import type { Logger } from '../logging/logger';

/**
 * Consumes a WebSocket token (POST /v1/auth/ws-token): single use, 60 s, bound to a wallet.
 * Resolves the wallet, or rejects with AppError AUTH_INVALID for a used, expired or unknown token.
 * The real one is src/auth's `consumeWsToken`; the gateway only depends on this shape.
 */
export type WsTokenConsumer = (token: string) => Promise<{ wallet: string; key?: ConnectionKey; authExpiresAt?: Date }>;

/** The API key a connection's token was issued with, and when that key's secret then in use was issued. */
export interface ConnectionKey {
  id: string;
  secretIssuedAt: Date;
}

export interface ConnectionIdentity {
  /** Lower-case wallet of an authenticated connection, null for a public one. */
  wallet: string | null;
  /** Its API key (key-watch.ts ends the connection with the key); null for a public or JWT one. */
  key: ConnectionKey | null;
  /** When the JWT its token was issued with expires (key-watch.ts ends the connection then). */
  authExpiresAt?: Date | null;
}

/** The error socket.io hands the client as `connect_error`; `data` is `{code, message}`. */
export interface HandshakeError extends Error {
  data: { code: ErrorCode; message: string };
}

export function handshakeError(code: ErrorCode, message?: string): HandshakeError {
  const text = message ?? ERROR_TABLE[code].message;
  return Object.assign(new Error(text), { data: { code, message: text } });
}

/** The token from `auth.token` or the query's `token`; undefined when neither is given. */
export function tokenOf(socket: Pick<Socket, 'handshake'>): string | undefined {
  const fromAuth = (socket.handshake.auth as { token?: unknown } | undefined)?.token;
  const fromQuery = socket.handshake.query.token;
  const token = fromAuth ?? fromQuery;
  if (token === undefined) return undefined;
  return typeof token === 'string' ? token : '';
}

/**
 * socket.io middleware: no token makes a public connection; a token is consumed (exactly once,
 * by this handshake) and binds the connection to its wallet; a bad one refuses the connection.
 */
export function wsAuthMiddleware(consume: WsTokenConsumer, logger: Logger) {
  return (socket: Socket, next: (error?: Error) => void): void => {
    const token = tokenOf(socket);
    const identity: ConnectionIdentity = { wallet: null, key: null };
    (socket.data as { identity?: ConnectionIdentity }).identity = identity;
    if (token === undefined) return next();
    if (token === '' || token.length > 512) return next(handshakeError('AUTH_INVALID', 'WebSocket token is invalid'));
    consume(token)
      .then(({ wallet, key, authExpiresAt }) => {
        identity.wallet = wallet.toLowerCase();
        identity.key = key ?? null;
        identity.authExpiresAt = authExpiresAt ?? null;
        next();
      })
      .catch((error: unknown) => {
        if (isAppError(error)) return next(handshakeError(error.code, error.message));
        logger.error({ err: error }, 'WebSocket token check failed');
        next(handshakeError('SERVICE_DEGRADED'));
      });
  };
}

export function identityOf(socket: Socket): ConnectionIdentity {
  return (socket.data as { identity?: ConnectionIdentity }).identity ?? { wallet: null, key: null };
}
