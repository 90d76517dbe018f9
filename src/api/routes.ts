import type { RequestHandler, Router } from 'express';
import type { Connection } from 'mongoose';
import { adminRoutes } from '../admin/admin.routes';
import { platformKeysRoutes } from '../admin/platform-keys.routes';
import { createPlatformKeyService, PlatformKeyService } from '../auth/platform-keys';
import { authRoutes } from '../auth/auth.routes';
import { AuthGuards, createAuthGuards } from '../auth/auth.middleware';
import { ApiKeyService, createApiKeyService } from '../auth/api-keys';
import { ApiKeyUsageTracker, createApiKeyUsageTracker } from '../auth/api-key-usage';
import { createJwtVerifier, JwtVerifierOptions } from '../auth/jwt-verifier';
import type { WsTokenDeps } from '../auth/ws-tokens';
import { createApiKeyModel, createPlatformKeyModel, createWsTokenModel, createWsTokenUseModel } from '../db/models';
import type { Logger } from '../logging/logger';
import type { ChainRegistry } from '../markets/chains';
import type { ConditionPreparer } from '../markets/condition-preparer';
import { createMongoMarketStatusChanger, forgettingChanged, MarketStatusChanger } from '../markets/market-status-changer';
import { MarketRecordCache } from '../orders/market-record-cache';
import { createMarketStore, MarketStore } from '../markets/market-store';
import { marketsRoutes } from '../markets/markets.routes';
import { seedDemoMarket } from '../markets/seed-demo-market';
import { docsRoutes, openApiRoutes } from './openapi/openapi.routes';
import type { AmmSetupStarter } from '../markets/create-amm-market';
import type { PoolStatesFor } from '../amm/amm-market-view';
import type { MarketChainSync } from '../markets/market-chain-status-input';
import type { AmmFunder } from '../amm/amm-funding-input';

export interface ApiModulesDeps {
  db: Connection;
  logger: Logger;
  chains: ChainRegistry;
  /** The condition preparer of each chain (the chain module's viem implementation in production). */
  preparerFor(chainId: number): ConditionPreparer;
  /** Server pepper for API-key secret and WebSocket-token hashes (API_KEY_PEPPER, required). */
  apiKeyPepper: string;
  /** JWT settings (AUTH_JWKS_URL / AUTH_JWT_SECRET / AUTH_JWT_ISSUER / AUTH_JWT_AUDIENCE). */
  jwt: JwtVerifierOptions;
  /** ADMIN_TOKEN; undefined turns /admin off (404). */
  adminToken?: string;
  /** Defaults to the direct MongoDB implementation until the market workflow takes status changes. */
  statusChanger?: MarketStatusChanger;
  /** Starts AMM pool setups on the worker (absent: AMM markets wait SEEDING). */
  ammSetup?: AmmSetupStarter;
  /** Cached pool state per chain: AMM markets' `amm.prices` (absent: prices null). */
  poolStates?: PoolStatesFor;
  /** Carries status changes to the chain on the worker (payouts, pools); absent: nothing on chain. */
  chainSync?: MarketChainSync;
  /** Adds operator liquidity to AMM pools on the worker; absent: funding is refused. */
  ammFunder?: AmmFunder;
  /** The embedded or another local chain: AMM pools are funded from the open mint. */
  localChain?: boolean;
  /** last_used_at flush period (default 5 s). */
  apiKeyUsageFlushMs?: number;
  /** Per-wallet REST rate limit, applied by the auth guards (off when absent). */
  limitByWallet?: RequestHandler;
}

/** Everything the market, auth and admin routes need, built once per process. `close()` flushes API-key usage. */
export interface ApiModules {
  deps: ApiModulesDeps;
  store: MarketStore;
  guards: AuthGuards;
  apiKeys: ApiKeyService;
  /** Partner apps' keys for the /trade API. */
  platformKeys: PlatformKeyService;
  usage: ApiKeyUsageTracker;
  wsTokens: WsTokenDeps;
  statusChanger: MarketStatusChanger;
  /** Market records for order entry and quotes; every status change drops its entry (market-record-cache.ts). */
  marketRecords: MarketRecordCache;
  /** Creates the demo market when there is no market yet (call at `npm start`). */
  seedDemoMarket(): Promise<'created' | 'skipped'>;
  close(): Promise<void>;
}

export function createApiModules(deps: ApiModulesDeps): ApiModules {
  if (!deps.apiKeyPepper || deps.apiKeyPepper.length < 32) throw new Error('API_KEY_PEPPER (32+ characters) is required');
  if (!deps.jwt.secret && !deps.jwt.jwksUrl && !deps.jwt.jwks) {
    deps.logger.warn('Neither AUTH_JWKS_URL nor AUTH_JWT_SECRET is set: every JWT will be rejected (AUTH_INVALID)');
  }
  const store = createMarketStore(deps.db);
  const apiKeyModel = createApiKeyModel(deps.db);
  const apiKeys = createApiKeyService({ model: apiKeyModel, pepper: deps.apiKeyPepper });
  const platformKeys = createPlatformKeyService({ model: createPlatformKeyModel(deps.db), pepper: deps.apiKeyPepper });
  const usage = createApiKeyUsageTracker({ model: apiKeyModel, logger: deps.logger, flushIntervalMs: deps.apiKeyUsageFlushMs });
  usage.start();
  const guards = createAuthGuards({ jwt: createJwtVerifier(deps.jwt), apiKeys, usage, limitByWallet: deps.limitByWallet });
  const wsTokens: WsTokenDeps = { model: createWsTokenModel(deps.db), uses: createWsTokenUseModel(deps.db), pepper: deps.apiKeyPepper };
  const marketRecords = new MarketRecordCache(store.markets);
  const statusChanger = forgettingChanged(deps.statusChanger ?? createMongoMarketStatusChanger(store), marketRecords);
  return {
    deps,
    store,
    guards,
    apiKeys,
    platformKeys,
    usage,
    wsTokens,
    statusChanger,
    marketRecords,
    seedDemoMarket: () => seedDemoMarket({ store, chains: deps.chains, preparerFor: deps.preparerFor, logger: deps.logger }),
    close: () => usage.stop(),
  };
}

/** Routers mounted under /v1: market data (L0), auth (L1/L2), the OpenAPI document. */
export function buildV1Routers(modules: ApiModules): Router[] {
  return [
    marketsRoutes({ store: modules.store, chains: modules.deps.chains, poolStates: modules.deps.poolStates }),
    authRoutes({ guards: modules.guards, apiKeys: modules.apiKeys, wsTokens: modules.wsTokens }),
    openApiRoutes(),
  ];
}

/** Routers mounted at the root: /docs, and /admin when ADMIN_TOKEN is set. */
export function buildRootRouters(modules: ApiModules): Router[] {
  const routers = [docsRoutes()];
  if (modules.deps.adminToken) {
    routers.push(
      adminRoutes({
        adminToken: modules.deps.adminToken,
        store: modules.store,
        chains: modules.deps.chains,
        preparerFor: modules.deps.preparerFor,
        statusChanger: modules.statusChanger,
        ammSetup: modules.deps.ammSetup,
        localChain: modules.deps.localChain,
        poolStates: modules.deps.poolStates,
        chainSync: modules.deps.chainSync,
        ammFunder: modules.deps.ammFunder,
      }),
      platformKeysRoutes({ adminToken: modules.deps.adminToken, platformKeys: modules.platformKeys }),
    );
  }
  return routers;
}
