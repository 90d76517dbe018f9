import { parseUnitsStrict } from '../money';

/** The fields of a fill that a position folds. */
export interface FoldedFill {
  trade_id: string;
  order_hash: string;
  side: 'BUY' | 'SELL' | string;
  price: string;
  size: string;
  fee?: string;
  settlement_status?: string;
  created_at: Date | string;
}

export interface PositionState {
  size: bigint; // base units (10^D)
  cost: bigint; // cost basis of `size`, in 10^(2D) units (size x price, unscaled)
  realized: bigint; // 10^(2D) units
}

export const EMPTY_POSITION: PositionState = { size: 0n, cost: 0n, realized: 0n };

/** Fills that never moved tokens do not make a position. */
export function countsForPosition(f: Pick<FoldedFill, 'settlement_status'>): boolean {
  return f.settlement_status !== 'FAILED';
}

/**
 * Folds one outcome's fills (oldest first) into a position, continuing from `from`: buys add size
 * at cost, sells take out their share of the cost basis at the average (realized = proceeds -
 * basis), fees are a realized cost. A sell of more than the book ever bought (tokens from
 * elsewhere) counts the excess at zero cost.
 */
export function foldFills(fills: Pick<FoldedFill, 'side' | 'price' | 'size' | 'fee' | 'created_at'>[], decimals: number, from: PositionState = EMPTY_POSITION): PositionState {
  const scale = 10n ** BigInt(decimals);
  const state: PositionState = { ...from };
  for (const f of fills) {
    const size = parseUnitsStrict(f.size, decimals);
    const price = parseUnitsStrict(f.price, decimals);
    const fee = parseUnitsStrict(f.fee || '0', decimals);
    if (f.side === 'BUY') {
      state.size += size;
      state.cost += size * price;
    } else {
      const fromBook = size < state.size ? size : state.size;
      const basis = state.size === 0n ? 0n : (state.cost * fromBook) / state.size;
      state.realized += size * price - basis;
      state.cost -= basis;
      state.size -= fromBook;
    }
    state.realized -= fee * scale;
  }
  return state;
}

/** Where a fill stands in its position's fold: its time, its trade's number in the market, then its ids. */
export interface FillPlace {
  at: Date;
  trade: number;
  trade_id: string;
  order_hash: string;
}

export function placeOf(f: Pick<FoldedFill, 'trade_id' | 'order_hash' | 'created_at'>): FillPlace {
  return { at: new Date(f.created_at), trade: tradeNumber(f.trade_id), trade_id: f.trade_id, order_hash: f.order_hash };
}

/**
 * Oldest first, and within one time (the fills of one matching step share it) by the trade's
 * number in its market: trade ids are `{market}:{n}` without padding, so as strings `...:100`
 * came before `...:99`, and a SELL folded before the BUY it follows made a flat position look long.
 */
export function comparePlaces(a: FillPlace, b: FillPlace): number {
  const byTime = a.at.getTime() - b.at.getTime();
  if (byTime !== 0) return byTime;
  const bySeq = a.trade - b.trade;
  if (bySeq !== 0) return bySeq;
  return a.trade_id < b.trade_id ? -1 : a.trade_id > b.trade_id ? 1 : a.order_hash < b.order_hash ? -1 : a.order_hash > b.order_hash ? 1 : 0;
}

export function inTradeOrder(a: FoldedFill, b: FoldedFill): number {
  return comparePlaces(placeOf(a), placeOf(b));
}

/** The `n` of trade id `{market}:{n}` (0 for an id of another shape: those keep their string order). */
function tradeNumber(tradeId: string): number {
  const n = Number(tradeId.slice(tradeId.lastIndexOf(':') + 1));
  return Number.isSafeInteger(n) ? n : 0;
}
