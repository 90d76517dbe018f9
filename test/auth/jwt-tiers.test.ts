import { createServer, type RequestListener, Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { loadJose } from '../../src/auth/jose-loader';
import { useTestDatabase } from '../helpers/test-database';
import { bearer, call, Harness, JWT_SECRET, signJwt, startHarness, WALLET_A } from '../api/app-harness';

const CHECKSUMMED = '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed';

function b64url(value: object): string {
  return Buffer.from(JSON.stringify(value)).toString('base64url');
}

describe('JWT authentication (HS256 secret)', () => {
  const database = useTestDatabase('jwt');
  let harness: Harness;
  beforeAll(async () => {
    harness = await startHarness(database.db(), { jwt: { secret: JWT_SECRET, issuer: 'https://idp.test', audience: 'predex' } });
  });
  afterAll(async () => harness.close());

  const whoami = (headers: Record<string, string>) => call(`${harness.url}/v1/test/whoami-read`, { headers });
  const good = (wallet = WALLET_A, extra: Parameters<typeof signJwt>[1] = {}) => signJwt(wallet, { issuer: 'https://idp.test', audience: 'predex', ...extra });

  test('when a valid JWT is presented, then the request acts for its lower-cased wallet with all permissions', async () => {
    const res = await whoami(bearer(await good(CHECKSUMMED)));
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ wallet: CHECKSUMMED.toLowerCase(), via: 'jwt', permissions: ['read', 'trade'], jwtExpiresAt: expect.any(String) });
    const trade = await call(`${harness.url}/v1/test/whoami-trade`, { method: 'POST', headers: bearer(await good()) });
    expect(trade.status).toBe(200);
  });

  test('when no credentials are sent, then 401 AUTH_MISSING', async () => {
    const res = await whoami({});
    expect(res.status).toBe(401);
    expect(res.body.code).toBe('AUTH_MISSING');
  });

  test('when the JWT is expired, then 401 AUTH_INVALID', async () => {
    const res = await whoami(bearer(await good(WALLET_A, { expiresIn: Math.floor(Date.now() / 1000) - 60 })));
    expect(res.status).toBe(401);
    expect(res.body).toMatchObject({ code: 'AUTH_INVALID', message: 'JWT expired' });
  });

  test('when the JWT is signed with another secret, then 401 AUTH_INVALID', async () => {
    const res = await whoami(bearer(await good(WALLET_A, { secret: 'another-secret-that-is-long-enough-0123456789' })));
    expect(res.body.code).toBe('AUTH_INVALID');
  });

  test('when the JWT uses alg none, then 401 AUTH_INVALID', async () => {
    const exp = Math.floor(Date.now() / 1000) + 300;
    const token = `${b64url({ alg: 'none', typ: 'JWT' })}.${b64url({ wallet_address: WALLET_A, exp, iss: 'https://idp.test', aud: 'predex' })}.`;
    const res = await whoami(bearer(token));
    expect(res.status).toBe(401);
    expect(res.body.code).toBe('AUTH_INVALID');
  });

  test('when the issuer or audience differs, then 401 AUTH_INVALID', async () => {
    expect((await whoami(bearer(await good(WALLET_A, { issuer: 'https://evil.test' })))).body.code).toBe('AUTH_INVALID');
    expect((await whoami(bearer(await good(WALLET_A, { audience: 'someone-else' })))).body.code).toBe('AUTH_INVALID');
  });

  test('when the JWT has no exp claim, then 401 AUTH_INVALID', async () => {
    const jose = await loadJose();
    const token = await new jose.SignJWT({ wallet_address: WALLET_A })
      .setProtectedHeader({ alg: 'HS256' })
      .setIssuer('https://idp.test')
      .setAudience('predex')
      .sign(new TextEncoder().encode(JWT_SECRET));
    expect((await whoami(bearer(token))).body.code).toBe('AUTH_INVALID');
  });

  test('when wallet_address is missing, malformed or wrongly checksummed, then 401 AUTH_INVALID', async () => {
    const badChecksum = `0x5AAeb6053F3E94C9b9A09f33669435E7Ef1BeAed`;
    for (const token of [await good('not-a-wallet'), await good(badChecksum), await good(WALLET_A, { claims: { wallet_address: undefined } })]) {
      const res = await whoami(bearer(token));
      expect(res.body.code).toBe('AUTH_INVALID');
    }
  });

  test('when Authorization is not a Bearer token or the token is garbage, then 401 AUTH_INVALID', async () => {
    expect((await whoami({ authorization: `Basic ${Buffer.from('a:b').toString('base64')}` })).body.code).toBe('AUTH_INVALID');
    expect((await whoami(bearer('garbage'))).body.code).toBe('AUTH_INVALID');
  });

  test('when a JWT and an API key pair are both sent, or only half a pair, then 401 AUTH_INVALID', async () => {
    const both = await whoami({ ...bearer(await good()), 'fs-api-key': 'x', 'fs-api-secret': 'y' });
    expect(both.body.code).toBe('AUTH_INVALID');
    const half = await whoami({ 'fs-api-key': '00000000-0000-4000-8000-000000000000' });
    expect(half.body.code).toBe('AUTH_INVALID');
  });

  test('when the JWT is sent in the api-key headers (a JWT where it is not accepted), then 401 AUTH_INVALID', async () => {
    const res = await whoami({ 'fs-api-key': await good(), 'fs-api-secret': await good() });
    expect(res.body.code).toBe('AUTH_INVALID');
  });
});

/** An identity provider whose key set endpoint answers with `handler`, and a service that trusts only it (no HS256 secret). */
async function identityProvider(db: Parameters<typeof startHarness>[0], handler: RequestListener): Promise<{ jwksServer: Server; harness: Harness }> {
  const jwksServer = createServer(handler);
  await new Promise<void>((resolve) => jwksServer.listen(0, '127.0.0.1', resolve));
  const { port } = jwksServer.address() as AddressInfo;
  return { jwksServer, harness: await startHarness(db, { jwt: { jwksUrl: `http://127.0.0.1:${port}/.well-known/jwks.json` } }) };
}

describe('JWT authentication (JWKS URL, asymmetric keys)', () => {
  const database = useTestDatabase('jwks');
  let harness: Harness;
  let jwksServer: Server;
  let privateKey: Parameters<InstanceType<Awaited<ReturnType<typeof loadJose>>['SignJWT']>['sign']>[0];
  let publicPem: string;

  beforeAll(async () => {
    const jose = await loadJose();
    const pair = await jose.generateKeyPair('RS256', { extractable: true });
    privateKey = pair.privateKey;
    publicPem = await jose.exportSPKI(pair.publicKey);
    const jwk = { ...(await jose.exportJWK(pair.publicKey)), kid: 'k1', alg: 'RS256', use: 'sig' };
    ({ jwksServer, harness } = await identityProvider(database.db(), (_req, res) => {
      res.setHeader('content-type', 'application/json');
      res.end(JSON.stringify({ keys: [jwk] }));
    }));
  });
  afterAll(async () => {
    await harness.close();
    await new Promise((resolve) => jwksServer.close(resolve));
  });

  const whoami = (token: string) => call(`${harness.url}/v1/test/whoami-read`, { headers: bearer(token) });

  test('when an RS256 JWT from the identity provider is presented, then it authenticates its wallet', async () => {
    const jose = await loadJose();
    const token = await new jose.SignJWT({ wallet_address: WALLET_A }).setProtectedHeader({ alg: 'RS256', kid: 'k1' }).setExpirationTime('5m').sign(privateKey);
    const res = await whoami(token);
    expect(res.status).toBe(200);
    expect(res.body.wallet).toBe(WALLET_A);
  });

  test('when an HS256 JWT is signed with the public key as the secret (HS/RS confusion), then 401 AUTH_INVALID', async () => {
    const jose = await loadJose();
    const token = await new jose.SignJWT({ wallet_address: WALLET_A })
      .setProtectedHeader({ alg: 'HS256', kid: 'k1' })
      .setExpirationTime('5m')
      .sign(new TextEncoder().encode(publicPem));
    const res = await whoami(token);
    expect(res.status).toBe(401);
    expect(res.body.code).toBe('AUTH_INVALID');
  });

  test('when an RS256 JWT is signed by a key the provider does not publish, then 401 AUTH_INVALID', async () => {
    const jose = await loadJose();
    const other = await jose.generateKeyPair('RS256');
    const token = await new jose.SignJWT({ wallet_address: WALLET_A }).setProtectedHeader({ alg: 'RS256', kid: 'k1' }).setExpirationTime('5m').sign(other.privateKey);
    expect((await whoami(token)).body.code).toBe('AUTH_INVALID');
  });
});

describe('JWT authentication while the identity provider fails', () => {
  const database = useTestDatabase('jwks_down');
  let harness: Harness;
  let jwksServer: Server;
  /** What the key set endpoint answers. */
  let answer: { status: number; body: string } = { status: 503, body: 'upstream unavailable' };

  beforeAll(async () => {
    ({ jwksServer, harness } = await identityProvider(database.db(), (_req, res) => {
      res.statusCode = answer.status;
      res.end(answer.body);
    }));
  });
  afterAll(async () => {
    await harness.close();
    await new Promise((resolve) => jwksServer.close(resolve));
  });

  test('when the key set endpoint answers 503 or a body that is not JSON, then 503 SERVICE_DEGRADED, not AUTH_INVALID', async () => {
    const jose = await loadJose();
    const { privateKey } = await jose.generateKeyPair('RS256');
    const token = await new jose.SignJWT({ wallet_address: WALLET_A }).setProtectedHeader({ alg: 'RS256', kid: 'k1' }).setExpirationTime('5m').sign(privateKey);
    for (const failing of [{ status: 503, body: 'upstream unavailable' }, { status: 200, body: '<html>maintenance</html>' }]) {
      answer = failing;
      const res = await call(`${harness.url}/v1/test/whoami-read`, { headers: bearer(token) });
      expect({ status: res.status, code: res.body.code }).toEqual({ status: 503, code: 'SERVICE_DEGRADED' });
    }
  });
});

describe('JWT verifier (HS256 secret)', () => {
  afterEach(() => jest.restoreAllMocks());

  test('when many tokens are verified, then the shared secret is imported as a key once, and each token is still checked against it', async () => {
    const { createJwtVerifier } = await import('../../src/auth/jwt-verifier');
    const imports = jest.spyOn(crypto.subtle, 'importKey');
    const verifier = createJwtVerifier({ secret: JWT_SECRET });
    for (let i = 0; i < 3; i++) expect(await verifier.verify(await signJwt(WALLET_A))).toMatchObject({ wallet: WALLET_A });
    await expect(verifier.verify(await signJwt(WALLET_A, { secret: 'another-secret-that-is-long-enough-0123456789' }))).rejects.toMatchObject({ code: 'AUTH_INVALID' });
    // The signing above imports its own keys; the verifier's import is the one with usage 'verify'.
    expect(imports.mock.calls.filter((call) => (call[4] as string[]).includes('verify'))).toHaveLength(1);
  });

  test('when one JWT comes again, then its signature is checked once, until VERIFIED_TOKEN_TTL_MS or its exp; any other token is checked anew', async () => {
    const { createJwtVerifier, VERIFIED_TOKEN_TTL_MS } = await import('../../src/auth/jwt-verifier');
    const checks = jest.spyOn(crypto.subtle, 'verify');
    let clock = Date.now();
    const verifier = createJwtVerifier({ secret: JWT_SECRET, now: () => clock });
    const token = await signJwt(WALLET_A, { expiresIn: '10m' });
    for (let i = 0; i < 3; i++) expect(await verifier.verify(token)).toMatchObject({ wallet: WALLET_A });
    expect(checks).toHaveBeenCalledTimes(1);
    // The same claims under another signature are another token: checked, and refused.
    const forged = `${token.slice(0, token.lastIndexOf('.') + 1)}${'A'.repeat(43)}`;
    await expect(verifier.verify(forged)).rejects.toMatchObject({ code: 'AUTH_INVALID' });
    expect(checks).toHaveBeenCalledTimes(2);
    // Past the memory's bound the token is checked again (and is still valid).
    clock += VERIFIED_TOKEN_TTL_MS + 1;
    expect(await verifier.verify(token)).toMatchObject({ wallet: WALLET_A });
    expect(checks).toHaveBeenCalledTimes(3);
    // Never past its exp: a token expiring in 2 s is remembered for 2 s at most.
    const short = await signJwt(WALLET_A, { expiresIn: '2s' });
    clock = Date.now();
    await verifier.verify(short);
    clock += 2_001;
    await verifier.verify(short).catch(() => undefined); // checked again (jose's tolerance may still accept it)
    expect(checks).toHaveBeenCalledTimes(5);
  });
});
