import type { Router } from 'express';
import type { TradeDeps } from './trade-deps';
import { tradeMarketsRoutes } from './trade-markets.routes';
import { tradePositionsRoutes } from './trade-positions.routes';
import { tradeQuoteRoutes } from './trade-quote.routes';
import { tradeSaveRoutes } from './trade-save.routes';

export type { AmmVenue, MarketLike } from './amm-venue-port';
export type { TradeDeps } from './trade-deps';

/** The /trade API (decisions section 9), mounted at the root beside /v1. */
export function createTradeRouters(deps: TradeDeps): Router[] {
  // Quotes first: the route polled most.
  return [tradeQuoteRoutes(deps), tradeMarketsRoutes(deps), tradePositionsRoutes(deps), tradeSaveRoutes(deps)];
}
