import type { Connection } from 'mongoose';
import {
  BookLevelModel,
  BookStateModel,
  createBookLevelModel,
  createBookStateModel,
  createMarketModel,
  createMarketStatusChangeModel,
  createPublicTradeModel,
  createTickerModel,
  MarketModel,
  MarketStatusChangeModel,
  PublicTradeModel,
  TickerModel,
} from '../db/models';

/** The market-data collections, registered on one connection. */
export interface MarketStore {
  markets: MarketModel;
  statusChanges: MarketStatusChangeModel;
  bookLevels: BookLevelModel;
  bookStates: BookStateModel;
  tickers: TickerModel;
  trades: PublicTradeModel;
}

export function createMarketStore(connection: Connection): MarketStore {
  return {
    markets: createMarketModel(connection),
    statusChanges: createMarketStatusChangeModel(connection),
    bookLevels: createBookLevelModel(connection),
    bookStates: createBookStateModel(connection),
    tickers: createTickerModel(connection),
    trades: createPublicTradeModel(connection),
  };
}
