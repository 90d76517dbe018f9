import type { Router } from 'express';
import type { Connection } from 'mongoose';
import { orderTimelineRoutes } from '../admin/order-timeline.routes';
import { buildRootRouters, buildV1Routers, type ApiModules } from '../api/routes';
import { WS_PATH } from '../api/server';
import { createAmmVenue } from '../amm/amm-venue';
import type { PoolStateReader } from '../amm/pool-state';
import type { ChainPort } from '../chain';
import type { ApiConfig } from '../config';
import { matchingCollections } from '../matching/collections';
import { temporalUiUrlOf } from '../config/temporal-ui-url';
import type { OrderRouters } from '../orders';
import type { TemporalHandle } from '../temporal/connect';
import { webRoutes, webSettingsOf } from '../web';
import { composeTradeRouters } from './compose-trade';
import type { QuoteBookSource } from '../trade/clob-quote-of-market';

/** The API process's routers, by where they are mounted. */
export interface ApiRouters {
  v1Routers: Router[];
  rootRouters: Router[];
}

/**
 * Every router of the API process, built in one place: under /v1 market data, auth, OpenAPI and
 * order entry; at the root /docs, /admin (when ADMIN_TOKEN is set), /trade and the market page.
 */
export function composeRouters(
  config: ApiConfig,
  io: { db: Connection; temporal: TemporalHandle; chain: ChainPort; poolStatesFor: (chainId: number) => PoolStateReader | undefined; books?: QuoteBookSource },
  modules: ApiModules,
  orders: OrderRouters,
): ApiRouters {
  const { db, temporal, chain, poolStatesFor, books } = io;
  return {
    v1Routers: [...buildV1Routers(modules), ...orders.routers],
    rootRouters: [
      // First: public quotes are the most frequent root request, and no other root path overlaps /trade.
      ...composeTradeRouters(modules, {
        db, chain, client: temporal.client, taskQueue: config.TEMPORAL_TASK_QUEUE, books,
        amm: createAmmVenue({ clientFor: (chainId) => (chainId === chain.chainId ? chain.context.publicClient : undefined), readerFor: poolStatesFor }),
      }),
      ...buildRootRouters(modules),
      webRoutes(webSettingsOf(config), WS_PATH),
      ...(config.ADMIN_TOKEN
        ? [orderTimelineRoutes({ adminToken: config.ADMIN_TOKEN, collections: matchingCollections(db), client: temporal.client, namespace: config.TEMPORAL_NAMESPACE, uiUrl: temporalUiUrlOf(config) })]
        : []),
    ],
  };
}
