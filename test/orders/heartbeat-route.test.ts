import type { DeadManSwitch } from '../../src/heartbeat/dead-man-switch';
import { useTestDatabase } from '../helpers/test-database';
import { ALICE, asWallet, call, readOnlyKey, startOrderHarness, type OrderHarness } from './harness';

describe('POST /v1/heartbeat', () => {
  const database = useTestDatabase('orders_heartbeat');
  const beats: [string, number][] = [];
  const dms: DeadManSwitch = {
    beat: async (wallet, timeoutS) => {
      beats.push([wallet, timeoutS]);
      return timeoutS === 0 ? { armed: false, expires_at: null } : { armed: true, expires_at: '2026-01-01T00:00:05.000Z' };
    },
  };
  let h: OrderHarness;
  beforeAll(async () => {
    h = await startOrderHarness(database.db, { deadManSwitch: dms });
  });
  afterAll(async () => h.close());

  const beat = (body: unknown, headers = asWallet(ALICE.address)) => call(`${h.url}/v1/heartbeat`, { method: 'POST', headers, body });

  test('when timeout_s is 5..300 or 0, then the wallet\'s switch is armed or disarmed and the answer says so', async () => {
    expect((await beat({ timeout_s: 5 })).body).toEqual({ armed: true, expires_at: '2026-01-01T00:00:05.000Z' });
    expect((await beat({ timeout_s: 300 })).status).toBe(200);
    expect((await beat({ timeout_s: 0 })).body).toEqual({ armed: false, expires_at: null });
    expect(beats).toEqual([[ALICE.address.toLowerCase(), 5], [ALICE.address.toLowerCase(), 300], [ALICE.address.toLowerCase(), 0]]);
  });

  test('when timeout_s is outside 0 and 5..300, or missing, then 422 and no switch is touched; a read-only key is 403', async () => {
    beats.length = 0;
    for (const body of [{ timeout_s: 4 }, { timeout_s: 301 }, { timeout_s: 1.5 }, { timeout_s: -1 }, {}, { timeout_s: 10, extra: 1 }]) {
      const res = await beat(body);
      expect([JSON.stringify(body), res.status, res.body.code]).toEqual([JSON.stringify(body), 422, 'VALIDATION_ERROR']);
    }
    expect((await beat({ timeout_s: 10 }, readOnlyKey(ALICE.address))).status).toBe(403);
    expect(beats).toEqual([]);
  });
});
