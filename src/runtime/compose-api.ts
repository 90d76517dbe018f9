import type { Router } from 'express';
import type { Connection } from 'mongoose';
import { createApiModules } from '../api/routes';
import type { ReadinessCheck } from '../http/health.routes';
import type { ApiServerDeps } from '../api/server';
import { consumeWsToken } from '../auth/ws-tokens';
import { jwtSettingsOf } from '../auth/jwt-settings';
import { attachGateway, GATEWAY_SOCKET_OPTIONS, type Gateway } from '../gateway';
import type { QuoteBookSource } from '../trade/clob-quote-of-market';
import type { ChainPort } from '../chain';
import { ApiConfig, ConfigError } from '../config';
import type { Logger } from '../logging/logger';
import { chainInfoOf, createChainConditionPreparer, createChainRegistry, reprepareMarketConditions } from '../markets';
import { pingDatabase } from '../db/connect';
import { pingTemporal, TemporalHandle } from '../temporal/connect';
import { createMarketMatcherClient } from '../temporal/market-matcher.client';
import { createWorkflowMarketStatusChanger } from '../temporal/workflow-status-changer';
import { createMarketModel, type MarketRecord } from '../db/models';
import { createHeartbeatStore, heartbeatsCollection } from '../heartbeat/beat-store';
import { createDeadManSwitch } from '../heartbeat/dead-man-switch';
import { createSwitchSignals, heartbeatTaskQueue } from '../temporal/heartbeat.client';
import { workflowConditionPreparer } from '../temporal/condition-preparer.client';
import type { ConditionPreparer } from '../markets/condition-preparer';
import { createOrderRouters, orderChainPortFromChainPorts } from '../orders';
import { createRateLimits } from '../http/middleware/rate-limits';
import { createApiEventHook } from './api-event-hook';
import { observeGateway } from '../metrics/gateway-metrics';
import { composeRouters } from './compose-routers';
import { createPoolStateReader } from '../amm/pool-state';
import { createAmmSetupStarter } from '../temporal/amm-setup.client';
import { createMarketChainSync } from '../temporal/market-chain-status.client';
import { createAmmFunder } from '../temporal/amm-funding.client';
import { seedDemoAmmMarket } from '../markets/seed-demo-amm-market';

export interface ApiComposition {
  v1Routers: Router[];
  rootRouters: Router[];
  readiness: ReadinessCheck[];
  socketOptions: ApiServerDeps['socketOptions'];
  attachGateway: ApiServerDeps['attachGateway'];
  limitByIp: ApiServerDeps['limitByIp'];
  leanRoutes: ApiServerDeps['leanRoutes'];
  close(): Promise<void>;
}

/**
 * Wires the API process's modules from its connections. On the embedded dev chain (fresh at every
 * start) the markets' conditions are prepared again and a demo market is seeded when none exists.
 */
export async function composeApi(config: ApiConfig, io: { db: Connection; temporal: TemporalHandle; chain: ChainPort; logger: Logger }): Promise<ApiComposition> {
  const { db, temporal, chain, logger } = io;
  if (!config.API_KEY_PEPPER) {
    throw new ConfigError(['API_KEY_PEPPER is required: API-key and WebSocket-token hashes depend on it (npm start generates one)']);
  }
  const chains = createChainRegistry([await chainInfoOf(chain)], config.CHAIN_ID);
  const preparer = marketConditionPreparer(config, temporal, chain);
  const matcher = createMarketMatcherClient(temporal.client, config.TEMPORAL_TASK_QUEUE, { lingerMs: config.HANDOFF_LINGER_MS, gatherMs: config.HANDOFF_GATHER_MS });
  const markets = createMarketModel(db);
  // One pool-state cache for quotes and Market views alike: one poolState() per pool per block.
  const poolStates = createPoolStateReader(chain.context.publicClient);
  const poolStatesFor = (chainId: number) => (chainId === chain.chainId ? poolStates : undefined);
  const limits = createRateLimits({ windowS: config.RATE_LIMIT_WINDOW_S, perWallet: config.RATE_LIMIT_PER_WALLET, perIp: config.RATE_LIMIT_PER_IP });
  const modules = createApiModules({
    db,
    logger,
    chains,
    preparerFor: () => preparer,
    ammSetup: createAmmSetupStarter(temporal.client, config.TEMPORAL_TASK_QUEUE),
    localChain: config.LOCAL_DEV_CHAIN,
    poolStates: poolStatesFor,
    chainSync: createMarketChainSync(temporal.client, config.TEMPORAL_TASK_QUEUE),
    ammFunder: createAmmFunder(temporal.client, config.TEMPORAL_TASK_QUEUE),
    apiKeyPepper: config.API_KEY_PEPPER,
    jwt: jwtSettingsOf(config),
    adminToken: config.ADMIN_TOKEN,
    limitByWallet: limits.byWallet,
    // Every status change goes through the market's workflow (decisions section 6).
    statusChanger: createWorkflowMarketStatusChanger(matcher, (chain_id, condition_id) =>
      markets.findOne({ chain_id, condition_id }).lean<MarketRecord>().exec(),
    ),
  });
  if (config.LOCAL_DEV_CHAIN) {
    const prepared = await reprepareMarketConditions({ store: modules.store, chainId: config.CHAIN_ID, preparer, logger });
    const seeded = await modules.seedDemoMarket();
    const seededAmm = await seedDemoAmmMarket({
      store: modules.store, chains, preparerFor: () => preparer, ammSetup: modules.deps.ammSetup, localChain: true, logger,
    });
    logger.info({ prepared, seeded, seeded_amm: seededAmm }, 'dev chain: market conditions prepared');
  }
  const deadManSwitch = createDeadManSwitch({
    signals: createSwitchSignals(temporal.client, heartbeatTaskQueue(config.TEMPORAL_TASK_QUEUE)),
    store: createHeartbeatStore(heartbeatsCollection(db)),
    logger,
  });
  const orders = createOrderRouters({
    connection: db,
    matcher,
    chain: orderChainPortFromChainPorts(() => chain),
    requireL2: (permission) => modules.guards.requireL2(permission),
    logger,
    chainIds: [config.CHAIN_ID],
    deadManSwitch,
    marketRecords: modules.marketRecords,
  });
  const stopOrderMaintenance = orders.startMaintenance();
  // CLOB quotes walk the books the gateway keeps for its `book` channel, once it is attached.
  let gateway: Gateway | undefined;
  const books: QuoteBookSource = (market, decimals) => gateway?.bookFor(market, decimals);
  return {
    ...composeRouters(config, { db, temporal, chain, poolStatesFor, books }, modules, orders),
    socketOptions: GATEWAY_SOCKET_OPTIONS,
    limitByIp: limits.byIp,
    leanRoutes: orders.leanRoutes,
    attachGateway: async (io) =>
      observeGateway(gateway = await attachGateway(io, {
        db,
        logger,
        consumeWsToken: (token) => consumeWsToken(modules.wsTokens, token),
        defaultChainId: config.CHAIN_ID,
        push: { host: config.HOST, port: config.REALTIME_PUSH_PORT, advertiseUrl: config.REALTIME_PUSH_URL },
        onEvent: createApiEventHook({ matcher, orders, logger }),
        keyStates: (keyIds) => modules.apiKeys.states(keyIds),
        limits: {
          maxConnectionsPerAddress: config.WS_MAX_CONNECTIONS_PER_ADDRESS,
          handshakesPerSecond: config.WS_HANDSHAKES_PER_SECOND,
          handshakeBurst: config.WS_HANDSHAKE_BURST,
          messagesPerSecond: config.WS_MESSAGES_PER_SECOND,
          messageBurst: config.WS_MESSAGE_BURST,
          memoryShedFraction: config.WS_MEMORY_SHED_PERCENT / 100,
        },
      })),
    readiness: [
      { name: 'mongodb', check: () => pingDatabase(db) },
      { name: 'temporal', check: () => pingTemporal(temporal.connection) },
      { name: 'chain', check: async () => void (await chain.getBlockNumber()) },
    ],
    close: async () => {
      stopOrderMaintenance();
      await deadManSwitch.close();
      await modules.close();
    },
  };
}

/**
 * Conditions of new markets are prepared by the worker (it holds the operator key; the API holds
 * none), through a workflow the API waits for; existing conditions are read from the chain here.
 */
function marketConditionPreparer(config: ApiConfig, temporal: TemporalHandle, chain: ChainPort): ConditionPreparer {
  return workflowConditionPreparer(temporal.client, config.TEMPORAL_TASK_QUEUE, config.CHAIN_ID, createChainConditionPreparer(chain));
}
