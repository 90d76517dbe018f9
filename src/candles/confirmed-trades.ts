import { parseUnitsStrict } from '../money';
import type { FillRecord } from '../matching/collections';
import type { CandleTrade } from './candle-math';

/**
 * The trades of confirmed taker fills, as candles take them: the trade's YES price (the taker
 * fill's `trade_price`), its size in shares (equal for both legs, YES or NO) and its match time.
 * Fills written before trade prices were carried have none and make no candle.
 */
export function confirmedTradesOf(fills: FillRecord[]): CandleTrade[] {
  return fills.filter((f) => f.role === 'taker' && f.settlement_status === 'CONFIRMED' && f.trade_price !== undefined).map((f) => ({
    tradeId: f.trade_id,
    chainId: f.chain_id,
    conditionId: f.condition_id,
    yesTicks: Number(parseUnitsStrict(f.trade_price!, 2)),
    sizeUnits: BigInt(f.size_units),
    atMs: new Date(f.created_at).getTime(),
  }));
}
