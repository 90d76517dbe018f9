import type { NextFunction, Request, RequestHandler, Response } from 'express';
import { AppError } from '../errors';
import type { ApiKeyPermission } from '../db/models';
import { ALL_PERMISSIONS, AuthContext } from './auth-context';
import type { ApiKeyService } from './api-keys';
import type { ApiKeyUsageTracker } from './api-key-usage';
import type { JwtVerifier } from './jwt-verifier';
import { hasPlatformHeaders } from './platform-key.guard';

export interface AuthGuardDeps {
  jwt: JwtVerifier;
  apiKeys: Pick<ApiKeyService, 'authenticate'>;
  usage: Pick<ApiKeyUsageTracker, 'mark'>;
  /** Per-wallet rate limit (src/http/middleware/rate-limits.ts), run once the wallet is known. */
  limitByWallet?: RequestHandler;
}

export interface AuthGuards {
  /** L1: `Authorization: Bearer <JWT>` only. A valid API-key pair here is FORBIDDEN (keys cannot manage keys). */
  requireL1(): RequestHandler;
  /** L2: the JWT, or `fs-api-key` + `fs-api-secret`; an API key must hold `permission` when one is given. */
  requireL2(permission?: ApiKeyPermission): RequestHandler;
}

type Presented =
  | { kind: 'none' }
  | { kind: 'jwt'; token: string }
  | { kind: 'api_key'; keyId: string; secret: string };

/** Reads the credentials of a request; malformed or ambiguous ones are AUTH_INVALID. */
function presented(req: Request): Presented {
  const authorization = req.header('authorization');
  const keyId = req.header('fs-api-key');
  const secret = req.header('fs-api-secret');
  const hasKeyHeaders = keyId !== undefined || secret !== undefined;
  if (authorization !== undefined && hasKeyHeaders) {
    throw new AppError('AUTH_INVALID', 'Send either a Bearer JWT or an API key pair, not both');
  }
  if (authorization !== undefined) {
    const match = /^Bearer ([^\s]+)$/i.exec(authorization.trim());
    if (!match) throw new AppError('AUTH_INVALID', 'Authorization must be "Bearer <JWT>"');
    return { kind: 'jwt', token: match[1] };
  }
  if (hasKeyHeaders) {
    if (!keyId || !secret) throw new AppError('AUTH_INVALID', 'Both fs-api-key and fs-api-secret are required');
    return { kind: 'api_key', keyId, secret };
  }
  if (hasPlatformHeaders(req)) throw new AppError('FORBIDDEN', 'A platform key is no trader credential; use a JWT or an API key');
  return { kind: 'none' };
}

export function createAuthGuards(deps: AuthGuardDeps): AuthGuards {
  async function authenticate(req: Request): Promise<AuthContext> {
    const credentials = presented(req);
    if (credentials.kind === 'none') throw new AppError('AUTH_MISSING');
    if (credentials.kind === 'jwt') {
      const { wallet, expiresAt } = await deps.jwt.verify(credentials.token);
      return { wallet, via: 'jwt', permissions: [...ALL_PERMISSIONS], ...(expiresAt ? { jwtExpiresAt: expiresAt } : {}) };
    }
    const identity = await deps.apiKeys.authenticate(credentials.keyId, credentials.secret);
    deps.usage.mark(identity.keyId);
    return { wallet: identity.wallet, via: 'api_key', keyId: identity.keyId, keySecretIssuedAt: identity.secretIssuedAt, permissions: identity.permissions };
  }

  const guard =
    (check: (auth: AuthContext) => void): RequestHandler =>
    async (req: Request, res: Response, next: NextFunction) => {
      const auth = await authenticate(req);
      check(auth);
      req.auth = auth;
      if (deps.limitByWallet) deps.limitByWallet(req, res, next);
      else next();
    };

  return {
    requireL1: () =>
      guard((auth) => {
        if (auth.via !== 'jwt') throw new AppError('FORBIDDEN', 'API keys cannot manage API keys; use your identity-provider JWT');
      }),
    requireL2: (permission) =>
      guard((auth) => {
        if (permission && !auth.permissions.includes(permission)) {
          throw new AppError('FORBIDDEN', `This API key lacks the '${permission}' permission`);
        }
      }),
  };
}

/** The authenticated context of a request that passed a guard. */
export function authOf(req: Request): AuthContext {
  if (!req.auth) throw new AppError('AUTH_MISSING');
  return req.auth;
}
