import type { RequestHandler } from 'express';
import type { SavedTradeModel, TradeTxModel } from '../db/models';
import type { TradeMarketDeps } from './trade-market';
import type { FillReadModel } from '../orders/models/fill.model';
import type { TradeTxStarter } from '../temporal/trade-tx.client';
import type { AmmVenue } from './amm-venue-port';
import type { PoolStatesFor } from '../amm/amm-market-view';
import type { TradeChain } from './trade-chain';
import type { QuoteBookSource } from './clob-quote-of-market';

/** Everything the /trade routes use, built once per API process. */
export interface TradeDeps extends TradeMarketDeps {
  chain: TradeChain;
  fills: FillReadModel;
  savedTrades: SavedTradeModel;
  txs: TradeTxModel;
  starter: TradeTxStarter;
  /** fs-platform-key / fs-platform-secret (src/auth/platform-key.guard.ts). */
  requirePlatform: RequestHandler;
  /** AMM markets' venue; unset: AMM markets answer MARKET_NOT_ACTIVE on quote and trade. */
  amm?: AmmVenue;
  /** CLOB books kept current in this process for quotes (absent or cold: quotes read the store). */
  books?: QuoteBookSource;
  /** Cached pool state per chain for AMM markets' `amm.prices` (absent: prices null). */
  poolStates?: PoolStatesFor;
}
