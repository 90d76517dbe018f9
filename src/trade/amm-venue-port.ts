import type { MarketRecord } from '../db/models';

/** The market record the venue reads (pool address, fee, tokens, status). */
export type MarketLike = MarketRecord;

/**
 * What the /trade routes need of AMM markets: quotes and trades against the market's on-chain pool
 * (src/amm/amm-venue.ts implements it). The routes validate the request and the market first; the
 * venue answers with the complete response bodies of POST /trade/quote and POST /trade.
 */
export interface AmmVenue {
  quote(market: MarketLike, request: { outcome: 0 | 1; side: 'BUY' | 'SELL'; amount: string }): Promise<Record<string, unknown>>;
  trade(
    market: MarketLike,
    request: { outcome: 0 | 1; side: 'BUY' | 'SELL'; amount: string; wallet: `0x${string}`; slippage_bps: number },
  ): Promise<Record<string, unknown>>;
}
