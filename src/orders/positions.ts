import { checkLimit, decodeCursor, encodeCursor, type Page } from '../http/pagination';
import type { MarketRecord } from '../db/models/market.model';
import { formatCanonical, parseUnitsStrict } from '../money';
import type { OrderContext } from './context';
import type { FillRecord } from './models/fill.model';
import type { PositionsQuery } from './order.schema';
import { checkChainId } from './read-orders';

/** Fills that never moved tokens do not make a position. */
const EXCLUDED_SETTLEMENT = ['FAILED'];

export interface PositionState {
  size: bigint; // base units (10^D)
  cost: bigint; // cost basis of `size`, in 10^(2D) units (size x price, unscaled)
  realized: bigint; // 10^(2D) units
}

/**
 * Folds one outcome's fills (oldest first) into a position: buys add size at cost, sells take out
 * their share of the cost basis at the average (realized = proceeds - basis), fees are a realized
 * cost. A sell of more than the book ever bought (tokens from elsewhere) counts the excess at zero cost.
 */
export function foldFills(fills: Pick<FillRecord, 'side' | 'price' | 'size' | 'fee' | 'created_at'>[], decimals: number): PositionState {
  const scale = 10n ** BigInt(decimals);
  const state: PositionState = { size: 0n, cost: 0n, realized: 0n };
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

function outcomePrice(market: MarketRecord, outcome: 0 | 1, lastYes: string | null, decimals: number): bigint | null {
  const scale = 10n ** BigInt(decimals);
  if (market.status === 'RESOLVED' && market.resolution_outcome !== null) return market.resolution_outcome === outcome ? scale : 0n;
  if (lastYes === null) return null;
  const yes = parseUnitsStrict(lastYes, decimals);
  return outcome === 1 ? yes : scale - yes;
}

/**
 * Oldest first, and within one time (the fills of one matching step share it) by the trade's
 * number in its market: trade ids are `{market}:{n}` without padding, so as strings `...:100`
 * came before `...:99`, and a SELL folded before the BUY it follows made a flat position look long.
 */
function inTradeOrder(a: FillRecord, b: FillRecord): number {
  const byTime = new Date(a.created_at).getTime() - new Date(b.created_at).getTime();
  if (byTime !== 0) return byTime;
  const bySeq = tradeNumber(a.trade_id) - tradeNumber(b.trade_id);
  if (bySeq !== 0) return bySeq;
  return a.trade_id < b.trade_id ? -1 : a.trade_id > b.trade_id ? 1 : a.order_hash < b.order_hash ? -1 : a.order_hash > b.order_hash ? 1 : 0;
}

/** The `n` of trade id `{market}:{n}` (0 for an id of another shape: those keep their string order). */
function tradeNumber(tradeId: string): number {
  const n = Number(tradeId.slice(tradeId.lastIndexOf(':') + 1));
  return Number.isSafeInteger(n) ? n : 0;
}

/** GET /v1/positions (decisions section 5), computed from the wallet's fills and market resolution. */
export async function listPositions(ctx: OrderContext, wallet: string, query: PositionsQuery): Promise<Page<Record<string, unknown>>> {
  checkChainId(ctx, query.chain_id);
  const limit = checkLimit(query.limit);
  // Failed fills too: they move nothing, but the first fill of a position, whatever became of it,
  // is the position's creation, which orders the list (and so never moves between two pages).
  const filter: Record<string, unknown> = { wallet: wallet.toLowerCase() };
  if (query.chain_id !== undefined) filter.chain_id = query.chain_id;
  if (query.condition_id !== undefined) filter.condition_id = query.condition_id.toLowerCase();
  const fills = (await ctx.models.fills.find(filter).lean()).sort(inTradeOrder);

  const groups = new Map<string, FillRecord[]>();
  for (const f of fills) {
    const key = `${f.chain_id}:${f.condition_id}:${f.outcome}`;
    const list = groups.get(key) ?? [];
    list.push(f);
    groups.set(key, list);
  }
  const conditions = [...new Set(fills.map((f) => `${f.chain_id}:${f.condition_id}`))].map((k) => {
    const [chain, condition] = k.split(':');
    return { chain_id: Number(chain), condition_id: condition };
  });
  const [markets, tickers] = conditions.length === 0
    ? [[], []]
    : await Promise.all([ctx.models.markets.find({ $or: conditions }).lean(), ctx.models.tickers.find({ $or: conditions }).lean()]);
  const marketOf = new Map(markets.map((m) => [`${m.chain_id}:${m.condition_id}`, m]));
  const lastOf = new Map(tickers.map((t) => [`${t.chain_id}:${t.condition_id}`, t.last_price]));

  const rows: { at: Date; id: string; position: Record<string, unknown> }[] = [];
  for (const [key, all] of groups) {
    const first = all[0];
    const list = all.filter((f) => !EXCLUDED_SETTLEMENT.includes(f.settlement_status));
    if (list.length === 0) continue;
    const market = marketOf.get(`${first.chain_id}:${first.condition_id}`);
    if (!market) continue;
    const outcome = first.outcome;
    const token = market.tokens.find((t) => t.outcome === outcome);
    if (!token) continue;
    const resolved = market.status === 'RESOLVED' && market.resolution_outcome !== null;
    if (query.status === 'active' && resolved) continue;
    if (query.status === 'resolved' && !resolved) continue;
    const d = token.decimals;
    const scale = 10n ** BigInt(d);
    const state = foldFills(list, d);
    const avg = state.size === 0n ? 0n : state.cost / state.size;
    const mark = outcomePrice(market, outcome, lastOf.get(`${first.chain_id}:${first.condition_id}`) ?? null, d) ?? avg;
    let realized = state.realized;
    if (resolved) realized += state.size * mark - state.cost; // resolution realizes what is still held
    rows.push({
      at: new Date(first.created_at),
      id: key,
      position: {
        condition_id: market.condition_id,
        chain_id: market.chain_id,
        outcome,
        outcome_label: outcome === 1 ? 'YES' : 'NO',
        token_id: token.token_id,
        size: formatCanonical(state.size, d),
        avg_price: formatCanonical(avg, d),
        current_value: formatCanonical((state.size * mark) / scale, d),
        realized_pnl: formatCanonical(realized / scale, d),
        status: resolved ? 'resolved' : 'active',
        resolution_outcome: resolved ? market.resolution_outcome : null,
      },
    });
  }
  rows.sort((a, b) => b.at.getTime() - a.at.getTime() || (a.id < b.id ? 1 : a.id > b.id ? -1 : 0));
  const cursor = decodeCursor(query.cursor);
  const after = cursor ? rows.filter((r) => r.at < cursor.at || (r.at.getTime() === cursor.at.getTime() && r.id < cursor.id)) : rows;
  const shown = after.slice(0, limit);
  const hasMore = after.length > limit;
  const last = shown[shown.length - 1];
  return {
    data: shown.map((r) => r.position),
    next_cursor: hasMore && last ? encodeCursor({ at: last.at, id: last.id }) : '',
    has_more: hasMore,
  };
}
