import type { Client } from '@temporalio/client';
import type { Router } from 'express';
import type { Connection } from 'mongoose';
import type { ApiModules } from '../api/routes';
import { requirePlatformKey } from '../auth/platform-key.guard';
import type { ChainPort } from '../chain';
import { createSavedTradeModel, createTradeTxModel } from '../db/models';
import { createFillReadModel } from '../orders/models/fill.model';
import { createTradeTxStarter } from '../temporal/trade-tx.client';
import { createTradeRouters, type AmmVenue, type TradeDeps } from '../trade';
import { tradeChainOf } from '../trade/trade-chain';

/** The /trade routers of the API process, on its database, chain and Temporal client. */
export function composeTradeRouters(
  modules: ApiModules,
  io: { db: Connection; chain: ChainPort; client: Client; taskQueue: string; amm?: AmmVenue; books?: TradeDeps['books'] },
): Router[] {
  return createTradeRouters({
    store: modules.store,
    chains: modules.deps.chains,
    chain: tradeChainOf(io.chain),
    fills: createFillReadModel(io.db),
    savedTrades: createSavedTradeModel(io.db),
    txs: createTradeTxModel(io.db),
    starter: createTradeTxStarter(io.client, io.taskQueue),
    requirePlatform: requirePlatformKey(modules.platformKeys),
    amm: io.amm,
    poolStates: modules.deps.poolStates,
    marketRecords: modules.marketRecords,
    books: io.books,
  });
}
