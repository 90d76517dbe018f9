import { consumeWsToken, issueWsToken, WS_TOKEN_TTL_SECONDS } from '../../src/auth/ws-tokens';
import { hashSecret } from '../../src/auth/secrets';
import { createWsTokenModel } from '../../src/db/models';
import { useTestDatabase } from '../helpers/test-database';
import { bearer, call, Harness, PEPPER, signJwt, startHarness, WALLET_A, WALLET_B } from '../api/app-harness';

describe('POST /v1/auth/ws-token and consumeWsToken', () => {
  const database = useTestDatabase('wstoken');
  let harness: Harness;
  beforeAll(async () => {
    harness = await startHarness(database.db());
  });
  afterAll(async () => harness.close());

  const issue = async (wallet = WALLET_A) =>
    call(`${harness.url}/v1/auth/ws-token`, { method: 'POST', headers: bearer(await signJwt(wallet)) });

  test('when a JWT user asks for a token, then {token, expires_in: 60} is returned and only its hash is stored', async () => {
    const res = await issue();
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ token: expect.any(String), expires_in: 60 });
    const rows = await createWsTokenModel(database.db()).find({ token_hash: hashSecret(PEPPER, res.body.token) }).lean().exec();
    expect(rows).toHaveLength(1);
    expect(rows[0].expires_at.getTime() - rows[0].created_at.getTime()).toBe(WS_TOKEN_TTL_SECONDS * 1000);
    expect(JSON.stringify(rows)).not.toContain(res.body.token);
  });

  test('when no credentials are sent, then 401 AUTH_MISSING', async () => {
    const res = await call(`${harness.url}/v1/auth/ws-token`, { method: 'POST' });
    expect(res.body.code).toBe('AUTH_MISSING');
  });

  test('when a token is consumed, then it returns its wallet once and is AUTH_INVALID afterwards', async () => {
    const res = await issue(WALLET_B);
    await expect(consumeWsToken(harness.modules.wsTokens, res.body.token)).resolves.toEqual({ wallet: WALLET_B, authExpiresAt: expect.any(Date) });
    await expect(consumeWsToken(harness.modules.wsTokens, res.body.token)).rejects.toMatchObject({ code: 'AUTH_INVALID' });
  });

  test('when several consumers race on one token, then exactly one wins', async () => {
    const res = await issue();
    const results = await Promise.allSettled(Array.from({ length: 8 }, () => consumeWsToken(harness.modules.wsTokens, res.body.token)));
    expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(1);
  });

  test('when the token is older than 60 seconds, then consuming it is AUTH_INVALID', async () => {
    const issuedAt = new Date(Date.now() - 61_000);
    const { token } = await issueWsToken({ ...harness.modules.wsTokens, now: () => issuedAt }, WALLET_A);
    await expect(consumeWsToken(harness.modules.wsTokens, token)).rejects.toMatchObject({ code: 'AUTH_INVALID' });
  });

  test('when the token is unknown or empty, then consuming it is AUTH_INVALID', async () => {
    await expect(consumeWsToken(harness.modules.wsTokens, 'unknown')).rejects.toMatchObject({ code: 'AUTH_INVALID' });
    await expect(consumeWsToken(harness.modules.wsTokens, '')).rejects.toMatchObject({ code: 'AUTH_INVALID' });
  });

  test('when a ws token is used as a REST Bearer credential, then 401 AUTH_INVALID', async () => {
    const res = await issue();
    const rest = await call(`${harness.url}/v1/test/whoami-read`, { headers: bearer(res.body.token) });
    expect(rest.status).toBe(401);
    expect(rest.body.code).toBe('AUTH_INVALID');
  });

  test('when a body is sent to ws-token, then 422 VALIDATION_ERROR', async () => {
    const res = await call(`${harness.url}/v1/auth/ws-token`, { method: 'POST', headers: bearer(await signJwt(WALLET_A)), body: { wallet: WALLET_B } });
    expect(res.status).toBe(422);
  });
});
