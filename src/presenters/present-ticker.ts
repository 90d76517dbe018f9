/** Prices from ticks as canonical decimal strings, and the standalone ticker (REST and the ticker channel). */
import { formatCanonical } from '../money';

export function priceOfTicks(ticks: number): string {
  return formatCanonical(BigInt(ticks), 2);
}

/** Standalone ticker (snake_case, decimal strings). Display price: last trade, else the mid, else null. */
export function presentTicker(market: { chain_id: number; condition_id: string }, t: { bestBid: number | null; bestAsk: number | null; lastPrice: number | null }, at: number): Record<string, unknown> {
  const spread = t.bestBid !== null && t.bestAsk !== null ? t.bestAsk - t.bestBid : null;
  const mid = t.bestBid !== null && t.bestAsk !== null ? Math.round((t.bestBid + t.bestAsk) / 2) : null;
  const display = t.lastPrice ?? mid;
  const dec = (ticks: number | null) => (ticks === null ? null : priceOfTicks(ticks));
  return {
    condition_id: market.condition_id, chain_id: market.chain_id, best_bid: dec(t.bestBid), best_ask: dec(t.bestAsk),
    last_price: dec(t.lastPrice), spread: dec(spread), display_price_yes: dec(display),
    display_price_no: dec(display === null ? null : 100 - display), timestamp: new Date(at).toISOString(),
  };
}
