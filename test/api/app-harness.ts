import { createRateLimits, type RateLimitSettings } from '../../src/http/middleware/rate-limits';
import { Router } from 'express';
import type { Connection } from 'mongoose';
import pino from 'pino';
import { startApiServer, type RunningApi } from '../../src/api/server';
import { consumeWsToken } from '../../src/auth';
import { attachGateway, GATEWAY_SOCKET_OPTIONS } from '../../src/gateway';
import { ApiModules, buildRootRouters, buildV1Routers, createApiModules } from '../../src/api/routes';
import { authOf } from '../../src/auth/auth.middleware';
import type { JwtVerifierOptions } from '../../src/auth/jwt-verifier';
import { loadJose } from '../../src/auth/jose-loader';
import { ChainInfo, createChainRegistry } from '../../src/markets/chains';
import type { ConditionPreparer } from '../../src/markets/condition-preparer';
import type { MarketStatusChanger } from '../../src/markets/market-status-changer';
import { createTestConditionPreparer, TEST_COLLATERAL } from './test-condition-preparer';

export const JWT_SECRET = 'jwt-secret-for-tests-only-0123456789abcdef';
export const PEPPER = 'pepper-for-tests-only-0123456789abcdef0123';
export const ADMIN_TOKEN = 'admin-token-for-tests-only-0123456789abcdef';
export const WALLET_A = '0x1111111111111111111111111111111111111111';
export const WALLET_B = '0x2222222222222222222222222222222222222222';

export const TEST_CHAIN: ChainInfo = {
  chain_id: 56,
  collateral_token: TEST_COLLATERAL,
  ctf_exchange_address: '0x00000000000000000000000000000000000000e0',
  conditional_tokens_address: '0x00000000000000000000000000000000000000c7',
  collateral_decimals: 18,
};

export interface Harness {
  url: string;
  modules: ApiModules;
  close(): Promise<void>;
}

/**
 * The real app on a free port with its market, auth and admin routers, against a test database.
 * Adds /v1/test/whoami-{read,trade} routes guarded by requireL2 so that tests can exercise the
 * permission check without the order routes and their chain.
 */
export async function startHarness(
  db: Connection,
  options: {
    adminToken?: string | null;
    jwt?: JwtVerifierOptions;
    preparer?: ConditionPreparer;
    chains?: ChainInfo[];
    statusChanger?: MarketStatusChanger;
    flushMs?: number;
    rateLimits?: RateLimitSettings;
  } = {},
): Promise<Harness> {
  const preparer = options.preparer ?? createTestConditionPreparer();
  const limits = options.rateLimits ? createRateLimits(options.rateLimits) : undefined;
  const modules = createApiModules({
    db,
    logger: pino({ level: process.env.TEST_LOG_LEVEL ?? 'silent' }),
    chains: createChainRegistry(options.chains ?? [TEST_CHAIN]),
    preparerFor: () => preparer,
    apiKeyPepper: PEPPER,
    jwt: options.jwt ?? { secret: JWT_SECRET },
    adminToken: options.adminToken === null ? undefined : (options.adminToken ?? ADMIN_TOKEN),
    statusChanger: options.statusChanger,
    apiKeyUsageFlushMs: options.flushMs ?? 60_000,
    limitByWallet: limits?.byWallet,
  });
  const probe = Router();
  probe.get('/test/whoami-read', modules.guards.requireL2('read'), (req, res) => {
    res.json(authOf(req));
  });
  probe.post('/test/whoami-trade', modules.guards.requireL2('trade'), (req, res) => {
    res.json(authOf(req));
  });
  const api = await startApiServer({
    host: '127.0.0.1',
    port: 0,
    logger: pino({ level: process.env.TEST_LOG_LEVEL ?? 'silent' }),
    readiness: [],
    v1Routers: [...buildV1Routers(modules), probe],
    rootRouters: buildRootRouters(modules),
    limitByIp: limits?.byIp,
  });
  return {
    url: api.url,
    modules,
    close: async () => {
      await modules.close();
      await api.close();
    },
  };
}

/** The API as src/api/main.ts wires it: the REST modules (auth, keys, ws tokens) and the gateway on one port. */
export async function startApiWithGateway(db: Connection, keyCheckMs: number): Promise<{ api: RunningApi; modules: ApiModules }> {
  const logger = pino({ level: process.env.TEST_LOG_LEVEL ?? 'silent' });
  const modules = createApiModules({
    db, logger, chains: createChainRegistry([TEST_CHAIN]), preparerFor: () => createTestConditionPreparer(),
    apiKeyPepper: PEPPER, jwt: { secret: JWT_SECRET }, apiKeyUsageFlushMs: 60_000,
  });
  const api = await startApiServer({
    host: '127.0.0.1', port: 0, logger, readiness: [], v1Routers: buildV1Routers(modules),
    socketOptions: GATEWAY_SOCKET_OPTIONS,
    attachGateway: (io) => attachGateway(io, {
      db, logger, consumeWsToken: (token) => consumeWsToken(modules.wsTokens, token),
      keyStates: (keyIds) => modules.apiKeys.states(keyIds), limits: { keyCheckMs },
    }),
  });
  return { api, modules };
}

/** An HS256 JWT for `wallet` (claims overridable), signed with the test secret unless told otherwise. */
export async function signJwt(
  wallet: string,
  options: { secret?: string; expiresIn?: string | number; issuer?: string; audience?: string; claims?: Record<string, unknown> } = {},
): Promise<string> {
  const jose = await loadJose();
  let jwt = new jose.SignJWT({ wallet_address: wallet, ...options.claims }).setProtectedHeader({ alg: 'HS256' }).setIssuedAt();
  if (options.expiresIn !== undefined) jwt = jwt.setExpirationTime(options.expiresIn);
  else jwt = jwt.setExpirationTime('5m');
  if (options.issuer) jwt = jwt.setIssuer(options.issuer);
  if (options.audience) jwt = jwt.setAudience(options.audience);
  return jwt.sign(new TextEncoder().encode(options.secret ?? JWT_SECRET));
}

/** fetch with JSON in and out. */
export async function call(
  url: string,
  init: { method?: string; headers?: Record<string, string>; body?: unknown; rawBody?: string } = {},
): Promise<{ status: number; body: any; headers: Headers }> {
  const headers: Record<string, string> = { ...init.headers };
  let body: string | undefined = init.rawBody;
  if (init.body !== undefined) {
    body = JSON.stringify(init.body);
    headers['content-type'] = 'application/json';
  } else if (init.rawBody !== undefined) headers['content-type'] ??= 'application/json';
  const res = await fetch(url, { method: init.method ?? 'GET', headers, body });
  const text = await res.text();
  let parsed: unknown = text;
  try {
    parsed = JSON.parse(text);
  } catch {
    // not JSON (e.g. /docs)
  }
  return { status: res.status, body: parsed, headers: res.headers };
}

export const bearer = (token: string) => ({ authorization: `Bearer ${token}` });
export const keyPair = (keyId: string, secret: string) => ({ 'fs-api-key': keyId, 'fs-api-secret': secret });
