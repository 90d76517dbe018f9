import { compileSchema } from '../../src/validation/ajv';
import { apiKeyListSchema, apiKeyMetadataSchema, issuedApiKeySchema } from '../../src/auth/auth.schemas';
import { hashSecret } from '../../src/auth/secrets';
import { createApiKeyModel } from '../../src/db/models';
import { useTestDatabase } from '../helpers/test-database';
import { bearer, call, Harness, keyPair, PEPPER, signJwt, startHarness, WALLET_A, WALLET_B } from '../api/app-harness';

const check = (schema: object) => {
  const validate = compileSchema(schema);
  return (body: unknown) => expect(validate(body) ? 'ok' : validate.errors).toBe('ok');
};

describe('API keys (L1 management, L2 use)', () => {
  const database = useTestDatabase('apikeys');
  let harness: Harness;
  let jwtA: string;
  let jwtB: string;
  beforeAll(async () => {
    harness = await startHarness(database.db());
    jwtA = await signJwt(WALLET_A);
    jwtB = await signJwt(WALLET_B);
  });
  afterAll(async () => harness.close());

  const createKey = async (jwt: string, body?: unknown) =>
    call(`${harness.url}/v1/auth/api-keys`, { method: 'POST', headers: bearer(jwt), body });
  const whoami = (keyId: string, secret: string) => call(`${harness.url}/v1/test/whoami-read`, { headers: keyPair(keyId, secret) });

  test('when a key is created without permissions, then 201 returns key_id and a secret, and the key has read only', async () => {
    const res = await createKey(jwtA);
    expect(res.status).toBe(201);
    check(issuedApiKeySchema)(res.body);
    expect(Buffer.from(res.body.secret, 'base64url')).toHaveLength(32);
    const me = await whoami(res.body.key_id, res.body.secret);
    expect(me.body).toEqual({ wallet: WALLET_A, via: 'api_key', keyId: res.body.key_id, keySecretIssuedAt: expect.any(String), permissions: ['read'] });
    const trade = await call(`${harness.url}/v1/test/whoami-trade`, { method: 'POST', headers: keyPair(res.body.key_id, res.body.secret) });
    expect(trade.status).toBe(403);
    expect(trade.body.code).toBe('FORBIDDEN');
  });

  test('when a key is created with trade permission, then it may use trade routes', async () => {
    const res = await createKey(jwtA, { permissions: ['trade', 'read'] });
    const trade = await call(`${harness.url}/v1/test/whoami-trade`, { method: 'POST', headers: keyPair(res.body.key_id, res.body.secret) });
    expect(trade.status).toBe(200);
    expect(trade.body.permissions).toEqual(['read', 'trade']);
  });

  test('when the secret is stored, then only its peppered hash is in the database', async () => {
    const res = await createKey(jwtA);
    const row = await createApiKeyModel(database.db()).findOne({ key_id: res.body.key_id }).lean().exec();
    expect(row?.secret_hash).toBe(hashSecret(PEPPER, res.body.secret));
    expect(JSON.stringify(row)).not.toContain(res.body.secret);
  });

  test.each([[{ permissions: ['admin'] }], [{ permissions: [] }], [{ permissions: 'read' }], [{ scope: 'x' }]])(
    'when the creation body is %j, then 422 VALIDATION_ERROR',
    async (body) => {
      const res = await createKey(jwtA, body);
      expect(res.status).toBe(422);
      expect(res.body.code).toBe('VALIDATION_ERROR');
    },
  );

  test('when the body is larger than the limit, then 422 VALIDATION_ERROR and no key is created', async () => {
    const before = await createApiKeyModel(database.db()).countDocuments().exec();
    const res = await call(`${harness.url}/v1/auth/api-keys`, {
      method: 'POST',
      headers: bearer(jwtA),
      rawBody: JSON.stringify({ permissions: ['read'], padding: 'x'.repeat(300 * 1024) }),
    });
    expect(res.status).toBe(422);
    expect(res.body).toMatchObject({ code: 'VALIDATION_ERROR', message: 'Request body is too large' });
    expect(await createApiKeyModel(database.db()).countDocuments().exec()).toBe(before);
  });

  test('when listing, then only the caller\'s non-revoked keys are shown, as metadata without secrets', async () => {
    const b = await createKey(jwtB);
    const res = await call(`${harness.url}/v1/auth/api-keys`, { headers: bearer(jwtB) });
    expect(res.status).toBe(200);
    check(apiKeyListSchema)(res.body);
    expect(res.body.data.map((k: { key_id: string }) => k.key_id)).toEqual([b.body.key_id]);
    expect(JSON.stringify(res.body)).not.toContain(b.body.secret);
    expect(res.body.data[0]).toMatchObject({ permissions: ['read'], last_used_at: null, revoked_at: null });
  });

  test('when an API key pair is used on an L1 route, then 403 FORBIDDEN (API keys cannot manage keys)', async () => {
    const key = await createKey(jwtA, { permissions: ['read', 'trade'] });
    const res = await call(`${harness.url}/v1/auth/api-keys`, { headers: keyPair(key.body.key_id, key.body.secret) });
    expect(res.status).toBe(403);
    expect(res.body.code).toBe('FORBIDDEN');
    const create = await call(`${harness.url}/v1/auth/api-keys`, { method: 'POST', headers: keyPair(key.body.key_id, key.body.secret), body: {} });
    expect(create.body.code).toBe('FORBIDDEN');
  });

  test('when an unknown key id or a wrong secret is used, then 401 AUTH_INVALID', async () => {
    const key = await createKey(jwtA);
    expect((await whoami('6f1c1c3e-2b7e-4c55-9d7a-1f8e2f0c9b11', key.body.secret)).body.code).toBe('AUTH_INVALID');
    expect((await whoami(key.body.key_id, `${key.body.secret}x`)).body.code).toBe('AUTH_INVALID');
    expect((await whoami('not-a-uuid', key.body.secret)).body.code).toBe('AUTH_INVALID');
  });

  test('when a key is revoked, then it fails at once with AUTH_REVOKED, leaves the list, and revoking again is idempotent', async () => {
    const key = await createKey(jwtA);
    expect((await whoami(key.body.key_id, key.body.secret)).status).toBe(200);
    const revoked = await call(`${harness.url}/v1/auth/api-keys/${key.body.key_id}`, { method: 'DELETE', headers: bearer(jwtA) });
    expect(revoked.status).toBe(200);
    check(apiKeyMetadataSchema)(revoked.body);
    expect(revoked.body.revoked_at).not.toBeNull();
    const use = await whoami(key.body.key_id, key.body.secret);
    expect(use.status).toBe(401);
    expect(use.body.code).toBe('AUTH_REVOKED');
    const list = await call(`${harness.url}/v1/auth/api-keys`, { headers: bearer(jwtA) });
    expect(list.body.data.map((k: { key_id: string }) => k.key_id)).not.toContain(key.body.key_id);
    const again = await call(`${harness.url}/v1/auth/api-keys/${key.body.key_id}`, { method: 'DELETE', headers: bearer(jwtA) });
    expect(again.body.revoked_at).toBe(revoked.body.revoked_at);
    // A revoked key reveals nothing to someone without its secret.
    expect((await whoami(key.body.key_id, 'wrong')).body.code).toBe('AUTH_INVALID');
    const regenerate = await call(`${harness.url}/v1/auth/api-keys/${key.body.key_id}/regenerate`, { method: 'POST', headers: bearer(jwtA) });
    expect(regenerate.body.code).toBe('NOT_FOUND');
  });

  test('when a key is regenerated, then the same key_id gets a new secret and the old secret fails at once', async () => {
    const key = await createKey(jwtA, { permissions: ['trade'] });
    const res = await call(`${harness.url}/v1/auth/api-keys/${key.body.key_id}/regenerate`, { method: 'POST', headers: bearer(jwtA) });
    expect(res.status).toBe(200);
    check(issuedApiKeySchema)(res.body);
    expect(res.body.key_id).toBe(key.body.key_id);
    expect(res.body.secret).not.toBe(key.body.secret);
    const old = await call(`${harness.url}/v1/test/whoami-trade`, { method: 'POST', headers: keyPair(key.body.key_id, key.body.secret) });
    expect(old.body.code).toBe('AUTH_INVALID');
    const fresh = await call(`${harness.url}/v1/test/whoami-trade`, { method: 'POST', headers: keyPair(res.body.key_id, res.body.secret) });
    expect(fresh.status).toBe(200);
    expect(fresh.body.permissions).toEqual(['trade']);
  });

  test("when wallet B tries to revoke or regenerate wallet A's key, then NOT_FOUND and A's key keeps working", async () => {
    const key = await createKey(jwtA);
    const revoke = await call(`${harness.url}/v1/auth/api-keys/${key.body.key_id}`, { method: 'DELETE', headers: bearer(jwtB) });
    expect(revoke.status).toBe(404);
    expect(revoke.body.code).toBe('NOT_FOUND');
    const regen = await call(`${harness.url}/v1/auth/api-keys/${key.body.key_id}/regenerate`, { method: 'POST', headers: bearer(jwtB) });
    expect(regen.body.code).toBe('NOT_FOUND');
    expect((await whoami(key.body.key_id, key.body.secret)).status).toBe(200);
  });

  test("when wallet A's key is used, then it acts for A only: B's keys are invisible and its ws-token is bound to A and to that key's secret", async () => {
    const key = await createKey(jwtA);
    const me = await whoami(key.body.key_id, key.body.secret);
    expect(me.body.wallet).toBe(WALLET_A);
    const token = await call(`${harness.url}/v1/auth/ws-token`, { method: 'POST', headers: keyPair(key.body.key_id, key.body.secret) });
    expect(token.status).toBe(200);
    const { consumeWsToken } = await import('../../src/auth/ws-tokens');
    const [record] = await harness.modules.apiKeys.states([key.body.key_id]);
    expect(await consumeWsToken(harness.modules.wsTokens, token.body.token)).toEqual({
      wallet: WALLET_A, key: { id: key.body.key_id, secretIssuedAt: record.secret_issued_at },
    });
  });

  test('when the key id path parameter is malformed, then 422; when it is unknown, then 404', async () => {
    expect((await call(`${harness.url}/v1/auth/api-keys/nope`, { method: 'DELETE', headers: bearer(jwtA) })).status).toBe(422);
    const unknown = await call(`${harness.url}/v1/auth/api-keys/6f1c1c3e-2b7e-4c55-9d7a-1f8e2f0c9b11`, { method: 'DELETE', headers: bearer(jwtA) });
    expect(unknown.status).toBe(404);
  });

  test('when a key management route gets an unknown query parameter, then 422 VALIDATION_ERROR', async () => {
    const res = await call(`${harness.url}/v1/auth/api-keys?all=true`, { headers: bearer(jwtA) });
    expect(res.status).toBe(422);
  });

  test('when a key is used, then last_used_at is written only at the coalesced flush, and moves forward', async () => {
    const key = await createKey(jwtA);
    const model = createApiKeyModel(database.db());
    await whoami(key.body.key_id, key.body.secret);
    await whoami(key.body.key_id, key.body.secret);
    expect((await model.findOne({ key_id: key.body.key_id }).lean().exec())?.last_used_at).toBeNull();
    await harness.modules.usage.flush();
    const first = (await model.findOne({ key_id: key.body.key_id }).lean().exec())?.last_used_at;
    expect(first).toBeInstanceOf(Date);
    harness.modules.usage.mark(key.body.key_id, new Date(0));
    await harness.modules.usage.flush();
    expect((await model.findOne({ key_id: key.body.key_id }).lean().exec())?.last_used_at).toEqual(first);
    const list = await call(`${harness.url}/v1/auth/api-keys`, { headers: bearer(jwtA) });
    const listed = list.body.data.find((k: { key_id: string }) => k.key_id === key.body.key_id);
    expect(listed.last_used_at).toBe((first as Date).toISOString());
  });
});
