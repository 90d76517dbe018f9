/**
 * REST rate limits (decisions: RATE_LIMITED, 429, `Retry-After`), on npm `express-rate-limit`
 * (fixed windows in memory, per process):
 * - per client address, on every request, before the body is parsed;
 * - per wallet, on every authenticated request (JWT or API key), after authentication.
 * Over a limit the answer is the error envelope with code RATE_LIMITED, `Retry-After` (seconds
 * until the window ends) and `details: {limit, window_s, retry_after_s}`; the standard
 * `RateLimit` and `RateLimit-Policy` headers tell a client where it stands on every answer.
 * Several API processes count separately (a shared store is the step up). docs/auth.md.
 */
import type { Request, RequestHandler } from 'express';
import { ipKeyGenerator, rateLimit } from 'express-rate-limit';
import { AppError } from '../../errors';

export interface RateLimitSettings {
  /** Window length in seconds. */
  windowS: number;
  /** Requests per window and wallet; 0: off. */
  perWallet: number;
  /** Requests per window and client address; 0: off. */
  perIp: number;
}

export interface RateLimits {
  byIp: RequestHandler;
  byWallet: RequestHandler;
}

const pass: RequestHandler = (_req, _res, next) => next();

function limiter(settings: RateLimitSettings, limit: number, what: string, keyOf: (req: Request) => string): RequestHandler {
  if (limit <= 0) return pass;
  return rateLimit({
    windowMs: settings.windowS * 1000,
    limit,
    standardHeaders: 'draft-8',
    legacyHeaders: false,
    keyGenerator: keyOf,
    handler: (req, _res, next) => {
      const info = (req as Request & { rateLimit?: { resetTime?: Date } }).rateLimit;
      const resetAt = info?.resetTime?.getTime() ?? Date.now() + settings.windowS * 1000;
      const retryAfter = Math.max(1, Math.ceil((resetAt - Date.now()) / 1000));
      next(new AppError('RATE_LIMITED', `Over ${limit} requests per ${settings.windowS} s ${what}; retry after ${retryAfter} s`, {
        limit, window_s: settings.windowS, retry_after_s: retryAfter,
      }));
    },
  });
}

export function createRateLimits(settings: RateLimitSettings): RateLimits {
  return {
    byIp: limiter(settings, settings.perIp, 'from this address', (req) => ipKeyGenerator(req.ip ?? 'unknown')),
    byWallet: limiter(settings, settings.perWallet, 'for this wallet', (req) => req.auth?.wallet ?? 'unknown'),
  };
}
