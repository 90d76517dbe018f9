import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Express } from 'express';
import { createApp, MAX_BODY_BYTES } from '../../src/api/app';
import { withLeanRoutes } from '../../src/api/lean-routes';
import { createAuthGuards } from '../../src/auth/auth.middleware';
import { AppError } from '../../src/errors';
import type { DeadManSwitch } from '../../src/heartbeat/dead-man-switch';
import { createRateLimits } from '../../src/http/middleware/rate-limits';
import { createLogger } from '../../src/logging/logger';
import { heartbeatLeanRoute, heartbeatRoutes } from '../../src/orders/heartbeat.routes';

const WALLET = '0x00000000000000000000000000000000000a11ce';
const PER_WALLET = 12;

interface Answer {
  status: number;
  body: unknown;
  headers: Record<string, string>;
}

/** Headers whose values differ between any two answers (time, connection, the window's count, the body's timestamp). */
const VARYING = new Set(['date', 'connection', 'keep-alive', 'ratelimit', 'etag']);

describe('POST /v1/heartbeat on the lean path', () => {
  let server: Server;
  let url = '';
  let toExpress = 0;
  const beats: [string, number][] = [];

  beforeAll(async () => {
    const dms: DeadManSwitch = {
      beat: async (wallet, timeoutS) => {
        beats.push([wallet, timeoutS]);
        return timeoutS === 0 ? { armed: false, expires_at: null } : { armed: true, expires_at: '2026-01-01T00:00:30.000Z' };
      },
    };
    const limits = createRateLimits({ windowS: 60, perWallet: PER_WALLET, perIp: 1000 });
    const guards = createAuthGuards({
      jwt: {
        verify: async (token) => {
          if (!/^0x[0-9a-f]{40}$/.test(token)) throw new AppError('AUTH_INVALID');
          return { wallet: token };
        },
      },
      apiKeys: {
        authenticate: async (keyId) => {
          if (!keyId.startsWith('read-only:')) throw new AppError('AUTH_INVALID');
          return { wallet: keyId.slice('read-only:'.length), keyId, permissions: ['read'], secretIssuedAt: new Date(0) };
        },
      },
      usage: { mark: () => undefined },
      limitByWallet: limits.byWallet,
    });
    const requireL2 = (permission: 'read' | 'trade') => guards.requireL2(permission);
    const logger = createLogger({ level: 'silent' });
    const app = createApp({ logger, readiness: [], v1Routers: [heartbeatRoutes(dms, requireL2)], limitByIp: limits.byIp });
    // Counts what reaches Express, so a test knows which path answered.
    const counted = Object.assign((req: IncomingMessage, res: ServerResponse) => {
      toExpress += 1;
      app(req, res);
    }, app) as unknown as Express;
    server = createServer(withLeanRoutes(counted, [heartbeatLeanRoute(dms, requireL2)], { logger, limitByIp: limits.byIp, maxBodyBytes: MAX_BODY_BYTES }));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(async () => new Promise<void>((resolve) => server.close(() => resolve())));

  /** POSTs `body` (raw text) to the lean target, or to Express (`/v1/heartbeat?via=express`: the same route to Express). */
  async function post(lean: boolean, body: string, headers: Record<string, string>): Promise<Answer> {
    const before = toExpress;
    const res = await fetch(`${url}/v1/heartbeat${lean ? '' : '?via=express'}`, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body });
    expect(toExpress - before).toBe(lean ? 0 : 1);
    const text = await res.text();
    return { status: res.status, body: JSON.parse(text) as unknown, headers: Object.fromEntries(res.headers) };
  }

  /** The same request both ways: status, body and headers (but for the varying ones) are equal. */
  async function bothWays(body: string, headers: Record<string, string>): Promise<Answer> {
    const viaExpress = await post(false, body, headers);
    const viaLean = await post(true, body, headers);
    const stable = (a: Answer) => ({
      status: a.status,
      body: { ...(a.body as Record<string, unknown>), ...((a.body as { timestamp?: string }).timestamp ? { timestamp: 'when' } : {}) },
      headers: Object.fromEntries(Object.entries(a.headers).filter(([k]) => !VARYING.has(k))),
    });
    expect(stable(viaLean)).toEqual(stable(viaExpress));
    expect(Object.keys(viaLean.headers).sort()).toEqual(Object.keys(viaExpress.headers).sort());
    return viaLean;
  }

  const jwt = { authorization: `Bearer ${WALLET}`, 'x-correlation-id': 'corr-1' };

  test('when a wallet beats or disarms, then the lean answer is the Express route\'s and the switch gets the beat', async () => {
    beats.length = 0;
    expect((await bothWays('{"timeout_s":30}', jwt)).body).toEqual({ armed: true, expires_at: '2026-01-01T00:00:30.000Z' });
    expect((await bothWays('{"timeout_s":0}', jwt)).body).toEqual({ armed: false, expires_at: null });
    expect(beats).toEqual([[WALLET, 30], [WALLET, 30], [WALLET, 0], [WALLET, 0]]);
  });

  test('when the body, the JSON or the credentials are wrong, then both paths answer the same error envelope', async () => {
    beats.length = 0;
    expect((await bothWays('{"timeout_s":4}', jwt)).status).toBe(422);
    expect((await bothWays('{"timeout_s":', jwt)).body).toMatchObject({ code: 'VALIDATION_ERROR', message: 'Malformed JSON body' });
    expect((await bothWays('"x"', jwt)).body).toMatchObject({ code: 'VALIDATION_ERROR', message: 'Malformed JSON body' });
    expect((await bothWays('{"timeout_s":30}', {})).body).toMatchObject({ code: 'AUTH_MISSING' });
    expect((await bothWays('{"timeout_s":30}', { authorization: 'Bearer nope' })).body).toMatchObject({ code: 'AUTH_INVALID' });
    expect((await bothWays('{"timeout_s":30}', { 'fs-api-key': `read-only:${WALLET}`, 'fs-api-secret': 's' })).status).toBe(403);
    expect(beats).toEqual([]);
  });

  test('when a request is not plain JSON with a length, then Express answers it', async () => {
    const before = toExpress;
    const res = await fetch(`${url}/v1/heartbeat`, { method: 'POST', headers: { 'content-type': 'text/plain', ...jwt }, body: '{"timeout_s":30}' });
    expect(res.status).toBe(422);
    expect(toExpress - before).toBe(1);
  });

  test('when the wallet passes its limit, then both paths count into one window and answer 429 alike', async () => {
    const other = { authorization: 'Bearer 0x00000000000000000000000000000000000b0b00' };
    for (let i = 0; i < PER_WALLET / 2; i += 1) await bothWays('{"timeout_s":30}', other);
    const limited = await bothWays('{"timeout_s":30}', other);
    expect(limited.status).toBe(429);
    expect(limited.body).toMatchObject({ code: 'RATE_LIMITED' });
    expect(limited.headers['retry-after']).toMatch(/^\d+$/);
  });
});
