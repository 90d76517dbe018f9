import { useTestDatabase } from '../helpers/test-database';
import { bearer, call, signJwt, startHarness, WALLET_A, WALLET_B, type Harness } from './app-harness';

describe('REST rate limits', () => {
  const database = useTestDatabase('rate_limits');
  let harness: Harness | undefined;
  afterEach(async () => {
    await harness?.close();
    harness = undefined;
  });

  test('when a wallet goes over its limit, then it is answered 429 RATE_LIMITED with Retry-After, and another wallet is not', async () => {
    harness = await startHarness(database.db(), { rateLimits: { windowS: 60, perWallet: 3, perIp: 0 } });
    const a = bearer(await signJwt(WALLET_A));
    const statuses: number[] = [];
    for (let i = 0; i < 4; i++) statuses.push((await call(`${harness.url}/v1/test/whoami-read`, { headers: a })).status);
    expect(statuses).toEqual([200, 200, 200, 429]);
    const over = await call(`${harness.url}/v1/test/whoami-read`, { headers: a });
    expect(over.status).toBe(429);
    expect(over.body).toMatchObject({ code: 'RATE_LIMITED', status_code: 429, details: { limit: 3, window_s: 60 } });
    const retryAfter = Number(over.headers.get('retry-after'));
    expect(retryAfter).toBeGreaterThanOrEqual(1);
    expect(retryAfter).toBeLessThanOrEqual(60);
    expect(over.body.details.retry_after_s).toBe(retryAfter);
    const b = await call(`${harness.url}/v1/test/whoami-read`, { headers: bearer(await signJwt(WALLET_B)) });
    expect(b.status).toBe(200);
    expect(b.headers.get('ratelimit-policy')).toMatch(/q=3/);
  });

  test('when one address goes over its limit, then even public routes answer 429 RATE_LIMITED until the window ends', async () => {
    harness = await startHarness(database.db(), { rateLimits: { windowS: 1, perWallet: 0, perIp: 2 } });
    const statuses: number[] = [];
    for (let i = 0; i < 3; i++) statuses.push((await call(`${harness.url}/v1/markets`)).status);
    expect(statuses).toEqual([200, 200, 429]);
    await new Promise((r) => setTimeout(r, 1_100));
    expect((await call(`${harness.url}/v1/markets`)).status).toBe(200);
  });
});
