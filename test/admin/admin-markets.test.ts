import { compileSchema } from '../../src/validation/ajv';
import { marketSchema } from '../../src/markets/market.schemas';
import { adminMarketPageSchema } from '../../src/admin/admin.schemas';
import { seedDemoMarket } from '../../src/markets/seed-demo-market';
import { createChainRegistry } from '../../src/markets/chains';
import { useTestDatabase } from '../helpers/test-database';
import { ADMIN_TOKEN, call, Harness, startHarness, TEST_CHAIN } from '../api/app-harness';
import { createTestConditionPreparer } from '../api/test-condition-preparer';

const isMarket = compileSchema(marketSchema);
const admin = { 'x-admin-token': ADMIN_TOKEN };

describe('admin surface', () => {
  const database = useTestDatabase('admin');
  let harness: Harness;
  beforeAll(async () => {
    harness = await startHarness(database.db());
  });
  afterAll(async () => harness.close());

  const create = (body: unknown, headers: Record<string, string> = admin) =>
    call(`${harness.url}/admin/markets`, { method: 'POST', headers, body });
  const setStatus = (conditionId: string, body: unknown, query = '') =>
    call(`${harness.url}/admin/markets/${conditionId}/status${query}`, { method: 'POST', headers: { ...admin, 'x-operator': 'alice' }, body });

  test('when x-admin-token is missing, then 401 AUTH_MISSING; when wrong, then 401 AUTH_INVALID', async () => {
    const missing = await create({ question: 'Q?', end_date: '2027-01-01T00:00:00Z' }, {});
    expect(missing.status).toBe(401);
    expect(missing.body.code).toBe('AUTH_MISSING');
    const wrong = await create({ question: 'Q?', end_date: '2027-01-01T00:00:00Z' }, { 'x-admin-token': `${ADMIN_TOKEN}x` });
    expect(wrong.body.code).toBe('AUTH_INVALID');
    const list = await call(`${harness.url}/admin/markets`, { headers: { 'x-admin-token': 'short' } });
    expect(list.body.code).toBe('AUTH_INVALID');
  });

  test('when a market is created with defaults, then 201 returns the Market as GET returns it (OPEN, fee 0, CLOB hidden)', async () => {
    const res = await create({ question: 'Will it rain?', end_date: '2027-01-01T00:00:00Z', summary: { en: 'Rain', cn: '下雨' }, rules: { en: 'Per the met office' } });
    expect(res.status).toBe(201);
    expect(isMarket(res.body)).toBe(true);
    expect(res.body).toMatchObject({ status: 'OPEN', fee_rate_bps: 0, chain_id: 56, summary: 'Rain', rules: 'Per the met office', ticker: null });
    const get = await call(`${harness.url}/v1/markets/${res.body.condition_id}`);
    expect(get.body).toEqual(res.body);
    const stored = await harness.modules.store.markets.findOne({ condition_id: res.body.condition_id }).lean().exec();
    expect(stored?.kind).toBe('CLOB');
  });

  test('when a condition is given, then its position ids are used and a second market on it is 422', async () => {
    const conditionId = `0x${'cd'.repeat(32)}`;
    const res = await create({ question: 'Existing condition?', end_date: '2027-01-01T00:00:00Z', condition_id: conditionId, kind: 'AMM', fee_rate_bps: 100, status: 'SEEDING', initial_liquidity: '100' });
    expect(res.status).toBe(201);
    const expected = await createTestConditionPreparer().positionIdsOf(conditionId);
    expect(res.body.tokens.map((t: { token_id: string }) => t.token_id)).toEqual([expected.noTokenId, expected.yesTokenId]);
    expect(res.body).toMatchObject({ status: 'SEEDING', fee_rate_bps: 100 });
    const again = await create({ question: 'Existing condition?', end_date: '2027-01-01T00:00:00Z', condition_id: conditionId });
    expect(again.status).toBe(422);
  });

  test.each([
    [{ end_date: '2027-01-01T00:00:00Z' }],
    [{ question: 'Q?', end_date: 'tomorrow' }],
    [{ question: 'Q?', end_date: '2027-01-01T00:00:00Z', kind: 'DEX' }],
    [{ question: 'Q?', end_date: '2027-01-01T00:00:00Z', fee_rate_bps: -1 }],
    [{ question: 'Q?', end_date: '2027-01-01T00:00:00Z', status: 'RESOLVED' }],
    [{ question: 'Q?', end_date: '2027-01-01T00:00:00Z', summary: { cn: '只有中文' } }],
    [{ question: 'Q?', end_date: '2027-01-01T00:00:00Z', condition_id: '0x12' }],
    [{ question: 'Q?', end_date: '2027-01-01T00:00:00Z', extra: true }],
  ])('when the create body is %j, then 422 VALIDATION_ERROR', async (body) => {
    const res = await create(body);
    expect(res.status).toBe(422);
    expect(res.body.code).toBe('VALIDATION_ERROR');
  });

  test('when the chain is unknown, then creating is NOT_FOUND', async () => {
    const res = await create({ question: 'Other chain?', end_date: '2027-01-01T00:00:00Z', chain_id: 1 });
    expect(res.status).toBe(404);
    expect(res.body.code).toBe('NOT_FOUND');
  });

  test('when an operator pauses, reopens, closes and resolves, then each change is applied and audited with who and when', async () => {
    const market = (await create({ question: 'Lifecycle?', end_date: '2027-01-01T00:00:00Z' })).body;
    const paused = await setStatus(market.condition_id, { status: 'PAUSED' }, '?chain_id=56');
    expect(paused.status).toBe(200);
    expect(paused.body.status).toBe('PAUSED');
    expect((await setStatus(market.condition_id, { status: 'OPEN' })).body.status).toBe('OPEN');
    expect((await setStatus(market.condition_id, { status: 'CLOSED' })).body.status).toBe('CLOSED');
    const resolved = await setStatus(market.condition_id, { status: 'RESOLVED', resolution_outcome: 1 });
    expect(resolved.status).toBe(200);
    expect(resolved.body.status).toBe('RESOLVED');
    const changes = await harness.modules.store.statusChanges.find({ condition_id: market.condition_id }).sort({ change_id: 1 }).lean().exec();
    expect(changes.map((c) => [c.from_status, c.to_status, c.actor])).toEqual([
      [null, 'OPEN', 'admin'],
      ['OPEN', 'PAUSED', 'alice'],
      ['PAUSED', 'OPEN', 'alice'],
      ['OPEN', 'CLOSED', 'alice'],
      ['CLOSED', 'RESOLVED', 'alice'],
    ]);
    expect(changes[4].resolution_outcome).toBe(1);
    expect(changes.every((c) => c.at instanceof Date)).toBe(true);
    const stored = await harness.modules.store.markets.findOne({ condition_id: market.condition_id }).lean().exec();
    expect(stored?.resolution_outcome).toBe(1);
  });

  test('when a resolved market is reopened, resolved without an outcome, or paused with an outcome, then 422', async () => {
    const market = (await create({ question: 'Bad transitions?', end_date: '2027-01-01T00:00:00Z' })).body;
    expect((await setStatus(market.condition_id, { status: 'RESOLVED' })).status).toBe(422);
    expect((await setStatus(market.condition_id, { status: 'PAUSED', resolution_outcome: 0 })).status).toBe(422);
    expect((await setStatus(market.condition_id, { status: 'SEEDING' })).status).toBe(422);
    expect((await setStatus(market.condition_id, { status: 'RESOLVED', resolution_outcome: 0 })).status).toBe(200);
    const reopen = await setStatus(market.condition_id, { status: 'OPEN' });
    expect(reopen.status).toBe(422);
    expect(reopen.body.message).toMatch(/RESOLVED to OPEN/);
    expect((await setStatus(market.condition_id, { status: 'RESOLVED', resolution_outcome: 1 })).status).toBe(422);
  });

  test('when the status asked is the current one, then 200 and no new audit row', async () => {
    const market = (await create({ question: 'No-op?', end_date: '2027-01-01T00:00:00Z' })).body;
    expect((await setStatus(market.condition_id, { status: 'OPEN' })).status).toBe(200);
    expect(await harness.modules.store.statusChanges.countDocuments({ condition_id: market.condition_id }).exec()).toBe(1);
  });

  test('when two operators change the same market at once, then exactly one change is applied', async () => {
    const market = (await create({ question: 'Race?', end_date: '2027-01-01T00:00:00Z' })).body;
    const results = await Promise.all([
      setStatus(market.condition_id, { status: 'PAUSED' }),
      setStatus(market.condition_id, { status: 'CLOSED' }),
      setStatus(market.condition_id, { status: 'PAUSED' }),
    ]);
    const applied = await harness.modules.store.statusChanges.find({ condition_id: market.condition_id, from_status: 'OPEN' }).lean().exec();
    expect(applied).toHaveLength(1);
    const final = await call(`${harness.url}/v1/markets/${market.condition_id}`);
    expect(final.body.status).toBe(applied[0].to_status);
    expect(results.some((r) => r.status === 200)).toBe(true);
  });

  test('when the market or chain is unknown, then status changes are NOT_FOUND', async () => {
    expect((await setStatus(`0x${'99'.repeat(32)}`, { status: 'PAUSED' })).body.code).toBe('NOT_FOUND');
    const market = (await create({ question: 'Chain?', end_date: '2027-01-01T00:00:00Z' })).body;
    expect((await setStatus(market.condition_id, { status: 'PAUSED' }, '?chain_id=97')).body.code).toBe('NOT_FOUND');
    expect((await setStatus(market.condition_id, { status: 'PAUSED' }, '?foo=1')).status).toBe(422);
  });

  test('when listing as admin, then every status is shown with the operator fields, paged', async () => {
    const res = await call(`${harness.url}/admin/markets?limit=100`, { headers: admin });
    expect(res.status).toBe(200);
    expect(compileSchema(adminMarketPageSchema)(res.body)).toBe(true);
    const kinds = new Set(res.body.data.map((m: { kind: string }) => m.kind));
    expect(kinds).toEqual(new Set(['CLOB', 'AMM']));
    const resolved = await call(`${harness.url}/admin/markets?status=RESOLVED`, { headers: admin });
    expect(resolved.body.data.every((m: { status: string }) => m.status === 'RESOLVED')).toBe(true);
  });
});

describe('admin surface without ADMIN_TOKEN', () => {
  const database = useTestDatabase('adminoff');
  let harness: Harness;
  beforeAll(async () => {
    harness = await startHarness(database.db(), { adminToken: null });
  });
  afterAll(async () => harness.close());

  test('when ADMIN_TOKEN is unset, then /admin routes are 404 NOT_FOUND even with a token', async () => {
    const res = await call(`${harness.url}/admin/markets`, { method: 'POST', headers: admin, body: { question: 'Q?', end_date: '2027-01-01T00:00:00Z' } });
    expect(res.status).toBe(404);
    expect(res.body.code).toBe('NOT_FOUND');
  });
});

describe('seedDemoMarket', () => {
  const database = useTestDatabase('seed');

  test('when called twice, or concurrently, on an empty database, then exactly one demo market exists', async () => {
    const { createMarketStore } = await import('../../src/markets/market-store');
    const store = createMarketStore(database.db());
    await store.markets.init();
    const deps = { store, chains: createChainRegistry([TEST_CHAIN]), preparerFor: () => createTestConditionPreparer() };
    const results = await Promise.all([seedDemoMarket(deps), seedDemoMarket(deps)]);
    expect(results).toContain('created');
    expect(await seedDemoMarket(deps)).toBe('skipped');
    expect(await store.markets.countDocuments().exec()).toBe(1);
    const market = await store.markets.findOne().lean().exec();
    expect(market).toMatchObject({ status: 'OPEN', kind: 'CLOB' });
    expect(market?.summary.cn).toBeTruthy();
  });
});

describe('admin surface: AMM markets', () => {
  const database = useTestDatabase('adminamm');
  let harness: Harness;
  beforeAll(async () => {
    harness = await startHarness(database.db());
  });
  afterAll(async () => harness.close());

  const create = (body: unknown) => call(`${harness.url}/admin/markets`, { method: 'POST', headers: admin, body });

  test('when an AMM market has no initial_liquidity off a local chain, then 422 and nothing is written', async () => {
    const res = await create({ question: 'Pool without funds?', end_date: '2027-01-01T00:00:00Z', kind: 'AMM' });
    expect(res.status).toBe(422);
    expect(res.body.message).toMatch(/initial_liquidity is required/);
    expect(await harness.modules.store.markets.countDocuments({ question: 'Pool without funds?' })).toBe(0);
  });

  test('when an AMM market is created with initial_liquidity, then it is SEEDING until its pool is funded', async () => {
    const res = await create({ question: 'Pool?', end_date: '2027-01-01T00:00:00Z', kind: 'AMM', status: 'OPEN', initial_liquidity: '500' });
    expect(res.status).toBe(201);
    expect(res.body.status).toBe('SEEDING');
    for (const initial_liquidity of ['0', '-1', '1e3', '0.0000000000000000001']) {
      expect((await create({ question: `Pool ${initial_liquidity}?`, end_date: '2027-01-01T00:00:00Z', kind: 'AMM', initial_liquidity })).status).toBe(422);
    }
  });
});
