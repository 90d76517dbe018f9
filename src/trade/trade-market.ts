import { AppError } from '../errors';
import type { MarketRecord } from '../db/models';
import type { ChainRegistry } from '../markets/chains';
import type { MarketStore } from '../markets/market-store';

export interface TradeMarketDeps {
  store: MarketStore;
  chains: ChainRegistry;
  /** Market records kept by the process and dropped on every status change (market-record-cache.ts). */
  marketRecords?: { findOne(market: { chain_id: number; condition_id: string }): Promise<MarketRecord | undefined> };
}

/** The market of a /trade request: unknown chain or market NOT_FOUND. */
export async function findTradeMarket(deps: TradeMarketDeps, chainId: number, conditionId: string): Promise<MarketRecord> {
  deps.chains.require(chainId);
  const market = await deps.store.markets.findOne({ chain_id: chainId, condition_id: conditionId.toLowerCase() }).lean<MarketRecord>().exec();
  if (!market) throw new AppError('NOT_FOUND', 'Market not found');
  return market;
}

/**
 * The market of a quote: from the process's record cache when there is one. A quote is only a
 * price, and a status change drops the record before it is answered, so a quote after a pause is
 * refused; POST /trade, which builds a transaction, reads the store (findTradeMarket).
 */
export async function findQuotedMarket(deps: TradeMarketDeps, chainId: number, conditionId: string): Promise<MarketRecord> {
  if (!deps.marketRecords) return findTradeMarket(deps, chainId, conditionId);
  deps.chains.require(chainId);
  const market = await deps.marketRecords.findOne({ chain_id: chainId, condition_id: conditionId });
  if (!market) throw new AppError('NOT_FOUND', 'Market not found');
  return market;
}

/** Quotes and trades need an OPEN market of a kind the service can route. */
export function requireOpen(market: MarketRecord): void {
  if (market.status !== 'OPEN') throw new AppError('MARKET_NOT_ACTIVE', `Market is ${market.status}`, { status: market.status });
}
