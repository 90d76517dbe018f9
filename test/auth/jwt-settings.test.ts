import { loadJose } from '../../src/auth/jose-loader';
import { jwtSettingsOf } from '../../src/auth/jwt-settings';
import { createJwtVerifier } from '../../src/auth/jwt-verifier';
import { ConfigError } from '../../src/config';
import { JWT_SECRET, signJwt, WALLET_A } from '../api/app-harness';

const IDP = { AUTH_JWKS_URL: 'https://idp.example/.well-known/jwks.json', AUTH_JWT_SECRET: undefined, AUTH_JWT_ISSUER: undefined, AUTH_JWT_AUDIENCE: undefined };

describe('JWT settings from the environment', () => {
  test('when AUTH_JWKS_URL is set without audience and issuer, then the start stops with a ConfigError naming both', () => {
    let error: unknown;
    try {
      jwtSettingsOf(IDP);
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(ConfigError);
    expect((error as ConfigError).problems).toEqual([
      expect.stringMatching(/^AUTH_JWT_AUDIENCE is required when AUTH_JWKS_URL is set/),
      expect.stringMatching(/^AUTH_JWT_ISSUER is required when AUTH_JWKS_URL is set/),
    ]);
    expect(() => jwtSettingsOf({ ...IDP, AUTH_JWT_AUDIENCE: 'predex' })).toThrow(/AUTH_JWT_ISSUER is required/);
  });

  test('when AUTH_JWKS_URL is set with audience and issuer, then the HS256 secret is left out; without it the secret is used', () => {
    expect(jwtSettingsOf({ ...IDP, AUTH_JWT_SECRET: JWT_SECRET, AUTH_JWT_ISSUER: 'https://idp.example', AUTH_JWT_AUDIENCE: 'predex' })).toEqual({
      jwksUrl: IDP.AUTH_JWKS_URL, issuer: 'https://idp.example', audience: 'predex',
    });
    expect(jwtSettingsOf({ ...IDP, AUTH_JWKS_URL: undefined, AUTH_JWT_SECRET: JWT_SECRET })).toMatchObject({ secret: JWT_SECRET });
  });

  test('when a verifier has a key set and a secret, then an HS256 dev token is refused and a provider token passes', async () => {
    const jose = await loadJose();
    const pair = await jose.generateKeyPair('ES256');
    const jwks = jose.createLocalJWKSet({ keys: [{ ...(await jose.exportJWK(pair.publicKey)), kid: 'k1', alg: 'ES256' }] });
    const verifier = createJwtVerifier({ jwks, secret: JWT_SECRET });
    await expect(verifier.verify(await signJwt(WALLET_A))).rejects.toMatchObject({ code: 'AUTH_INVALID' });
    const provider = await new jose.SignJWT({ wallet_address: WALLET_A }).setProtectedHeader({ alg: 'ES256', kid: 'k1' }).setExpirationTime('5m').sign(pair.privateKey);
    expect(await verifier.verify(provider)).toMatchObject({ wallet: WALLET_A });
    // The same secret alone (no provider configured) accepts the dev token.
    expect(await createJwtVerifier({ secret: JWT_SECRET }).verify(await signJwt(WALLET_A))).toMatchObject({ wallet: WALLET_A });
  });
});
