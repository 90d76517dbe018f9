import type { NextFunction, Request, RequestHandler, Response } from 'express';
import { AppError } from '../errors';
import type { PlatformKeyMetadata, PlatformKeyService } from './platform-keys';

export const PLATFORM_KEY_HEADER = 'fs-platform-key';
export const PLATFORM_SECRET_HEADER = 'fs-platform-secret';

declare module 'express-serve-static-core' {
  interface Request {
    platform?: PlatformKeyMetadata;
  }
}

/** Whether a request carries any platform-key header (a /v1 trader guard refuses those). */
export function hasPlatformHeaders(req: Request): boolean {
  return req.header(PLATFORM_KEY_HEADER) !== undefined || req.header(PLATFORM_SECRET_HEADER) !== undefined;
}

function hasTraderCredentials(req: Request): boolean {
  return req.header('authorization') !== undefined || req.header('fs-api-key') !== undefined || req.header('fs-api-secret') !== undefined;
}

/**
 * The /trade routes that act for a partner app: `fs-platform-key` + `fs-platform-secret`. A trader's
 * JWT or API key alone is the wrong kind of credential (FORBIDDEN), not a missing one.
 */
export function requirePlatformKey(keys: Pick<PlatformKeyService, 'authenticate'>): RequestHandler {
  return async (req: Request, _res: Response, next: NextFunction) => {
    if (!hasPlatformHeaders(req)) {
      if (hasTraderCredentials(req)) throw new AppError('FORBIDDEN', 'This route needs a platform key (fs-platform-key, fs-platform-secret), not trader credentials');
      throw new AppError('AUTH_MISSING', 'fs-platform-key and fs-platform-secret are required');
    }
    const keyId = req.header(PLATFORM_KEY_HEADER);
    const secret = req.header(PLATFORM_SECRET_HEADER);
    if (!keyId || !secret) throw new AppError('AUTH_INVALID', 'Both fs-platform-key and fs-platform-secret are required');
    req.platform = await keys.authenticate(keyId, secret);
    next();
  };
}
