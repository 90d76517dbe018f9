import { createHash } from 'node:crypto';
import type { JWTVerifyGetKey } from 'jose';
import { AppError } from '../errors';
import { loadJose } from './jose-loader';
import { normalizeWallet } from './wallet';

/** Signature algorithms accepted from the identity provider's JWKS; HS256 only with the shared secret. */
export const ASYMMETRIC_ALGORITHMS = ['RS256', 'RS384', 'RS512', 'PS256', 'PS384', 'PS512', 'ES256', 'ES384', 'ES512', 'EdDSA'];
export const SECRET_ALGORITHM = 'HS256';

export interface JwtVerifierOptions {
  /** Identity provider's JWKS URL (production). */
  jwksUrl?: string;
  /** A key set resolver given directly (e.g. jose's createLocalJWKSet); takes the place of jwksUrl. */
  jwks?: JWTVerifyGetKey;
  /** HS256 shared secret (development and tests): ignored when a key set is configured. */
  secret?: string;
  issuer?: string;
  audience?: string;
  clockToleranceSec?: number;
  /** The clock of the verified-token memory (tests move it); default Date.now. */
  now?: () => number;
}

/**
 * A verified token is remembered for at most this long (and never past its `exp`): a bot presents
 * the same JWT on every request, and its HMAC or signature check was ~7% of the API's CPU under a
 * stream of single-order POSTs. Bounded so that a key the identity provider withdraws stops being
 * honoured within a minute.
 */
export const VERIFIED_TOKEN_TTL_MS = 60_000;
const MAX_REMEMBERED_TOKENS = 10_000;

export interface JwtVerifier {
  /** The wallet (lower-case) of a valid JWT and when the JWT expires; AUTH_INVALID otherwise. */
  verify(token: string): Promise<{ wallet: string; expiresAt?: Date }>;
}

const COMPACT_JWS = /^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]*$/;

/**
 * Verifies L1/L2 JWTs with jose. The key is chosen by the token's `alg` but each key is pinned to
 * its own algorithms, so `alg: none`, HS256 signed with a public key (HS/RS confusion) and any
 * algorithm not configured are all rejected. `exp` is required and enforced.
 */
export function createJwtVerifier(options: JwtVerifierOptions): JwtVerifier {
  // Imported once: given the raw bytes, jose imports a WebCrypto key on every verification
  // (~6% of the API's CPU under a stream of single-order POSTs).
  // With the identity provider's keys configured, a token signed with the shared secret (which
  // `npm start` generates and a deployment may leave behind) must not pass as a user's.
  const hasKeySet = Boolean(options.jwks || options.jwksUrl);
  const secret = options.secret && !hasKeySet
    ? crypto.subtle.importKey('raw', new TextEncoder().encode(options.secret), { name: 'HMAC', hash: 'SHA-256' }, false, ['verify'])
    : undefined;
  let remote: JWTVerifyGetKey | undefined = options.jwks;
  const keySet = async (): Promise<JWTVerifyGetKey | undefined> => {
    if (!remote && options.jwksUrl) remote = (await loadJose()).createRemoteJWKSet(new URL(options.jwksUrl));
    return remote;
  };
  const claims = { issuer: options.issuer, audience: options.audience, requiredClaims: ['exp'], clockTolerance: options.clockToleranceSec ?? 5 };
  const now = options.now ?? Date.now;
  // By the token's SHA-256, not the token: the memory holds no credential.
  const verified = new Map<string, { wallet: string; until: number; exp: number }>();
  const remember = (digest: string, wallet: string, exp: number) => {
    if (verified.size >= MAX_REMEMBERED_TOKENS) verified.delete(verified.keys().next().value!); // the oldest
    verified.set(digest, { wallet, until: Math.min(exp * 1000, now() + VERIFIED_TOKEN_TTL_MS), exp });
  };
  const answer = (wallet: string, exp: number) => ({ wallet, expiresAt: new Date(exp * 1000) });

  return {
    async verify(token) {
      if (!COMPACT_JWS.test(token)) throw new AppError('AUTH_INVALID', 'Malformed JWT');
      const digest = createHash('sha256').update(token).digest('base64url');
      const seen = verified.get(digest);
      if (seen && now() < seen.until) return answer(seen.wallet, seen.exp);
      if (seen) verified.delete(digest);
      const jose = await loadJose();
      let alg: string | undefined;
      try {
        alg = jose.decodeProtectedHeader(token).alg;
      } catch {
        throw new AppError('AUTH_INVALID', 'Malformed JWT');
      }
      try {
        let payload: Record<string, unknown>;
        const jwks = await keySet();
        if (alg === SECRET_ALGORITHM && secret) {
          ({ payload } = await jose.jwtVerify(token, await secret, { ...claims, algorithms: [SECRET_ALGORITHM] }));
        } else if (alg && ASYMMETRIC_ALGORITHMS.includes(alg) && jwks) {
          ({ payload } = await jose.jwtVerify(token, jwks, { ...claims, algorithms: ASYMMETRIC_ALGORITHMS }));
        } else {
          throw new AppError('AUTH_INVALID', `JWT algorithm ${alg ?? '(none)'} is not accepted`);
        }
        const wallet = normalizeWallet(payload.wallet_address);
        if (!wallet) throw new AppError('AUTH_INVALID', 'JWT has no valid wallet_address claim');
        // `exp` is a required claim: jose refused the token without a numeric one.
        const exp = payload.exp as number;
        remember(digest, wallet, exp);
        return answer(wallet, exp);
      } catch (error) {
        throw toAuthError(error);
      }
    },
  };
}

function toAuthError(error: unknown): AppError {
  if (error instanceof AppError) return error;
  const code = (error as { code?: unknown })?.code;
  // A key set that timed out, answered other than 200 OK (jose's generic error) or is not a key set.
  if (code === 'ERR_JWKS_TIMEOUT' || code === 'ERR_JOSE_GENERIC' || code === 'ERR_JWKS_INVALID') {
    return new AppError('SERVICE_DEGRADED', 'Identity provider keys are unavailable', undefined, { cause: error });
  }
  if (code === 'ERR_JWT_EXPIRED') return new AppError('AUTH_INVALID', 'JWT expired');
  if (typeof code === 'string' && code.startsWith('ERR_J')) return new AppError('AUTH_INVALID', 'JWT verification failed');
  // A JWKS fetch that failed at the network level.
  return new AppError('SERVICE_DEGRADED', 'Identity provider keys are unavailable', undefined, { cause: error });
}
