import { ConfigError, type Config } from '../config';
import type { JwtVerifierOptions } from './jwt-verifier';

type JwtConfig = Pick<Config, 'AUTH_JWKS_URL' | 'AUTH_JWT_SECRET' | 'AUTH_JWT_ISSUER' | 'AUTH_JWT_AUDIENCE'>;

/**
 * The JWT verifier's settings from the environment. With AUTH_JWKS_URL (an identity provider)
 * AUTH_JWT_AUDIENCE and AUTH_JWT_ISSUER are required, so a token the provider issued for another
 * application or by another tenant is refused, and the HS256 secret is dropped: dev tokens pass
 * only where no provider is configured.
 */
export function jwtSettingsOf(config: JwtConfig): JwtVerifierOptions {
  if (!config.AUTH_JWKS_URL) return { secret: config.AUTH_JWT_SECRET, issuer: config.AUTH_JWT_ISSUER, audience: config.AUTH_JWT_AUDIENCE };
  const missing = (['AUTH_JWT_AUDIENCE', 'AUTH_JWT_ISSUER'] as const).filter((name) => !config[name]);
  if (missing.length > 0) {
    throw new ConfigError(missing.map((name) => `${name} is required when AUTH_JWKS_URL is set (identity-provider tokens are checked for their audience and issuer)`));
  }
  return { jwksUrl: config.AUTH_JWKS_URL, issuer: config.AUTH_JWT_ISSUER, audience: config.AUTH_JWT_AUDIENCE };
}
