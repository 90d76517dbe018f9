import { checkLimit, decodeCursor, encodeCursor, pageQuery, type Page } from '../http/pagination';
import type { MarketRecord } from '../db/models/market.model';
import { formatCanonical, parseUnitsStrict } from '../money';
import { stateOf, type PositionRow } from '../positions/position-rows';
import type { OrderContext } from './context';
import type { PositionsQuery } from './order.schema';
import { checkChainId } from './read-orders';

/** Rows read per round while a page fills (a status filter or a missing market can skip rows). */
const ROWS_PER_READ = 101;

function outcomePrice(market: MarketRecord, outcome: 0 | 1, lastYes: string | null, decimals: number): bigint | null {
  const scale = 10n ** BigInt(decimals);
  if (market.status === 'RESOLVED' && market.resolution_outcome !== null) return market.resolution_outcome === outcome ? scale : 0n;
  if (lastYes === null) return null;
  const yes = parseUnitsStrict(lastYes, decimals);
  return outcome === 1 ? yes : scale - yes;
}

/**
 * GET /v1/positions (decisions section 5), from the wallet's position rows (src/positions), newest
 * position first (by its first fill), with market resolution and the last price applied here.
 * Work per page: its rows, their markets and tickers; rows a status filter skips are read too.
 */
export async function listPositions(ctx: OrderContext, wallet: string, query: PositionsQuery): Promise<Page<Record<string, unknown>>> {
  checkChainId(ctx, query.chain_id);
  const limit = checkLimit(query.limit);
  const filter: Record<string, unknown> = { wallet: wallet.toLowerCase(), live: { $gt: 0 } };
  if (query.chain_id !== undefined) filter.chain_id = query.chain_id;
  if (query.condition_id !== undefined) filter.condition_id = query.condition_id.toLowerCase();
  const shown: { row: PositionRow; position: Record<string, unknown> }[] = [];
  let after = decodeCursor(query.cursor);
  while (shown.length <= limit) {
    const page = pageQuery(after, 'first_at', 'key');
    const rows = await ctx.models.positions.find({ ...filter, ...page.filter }).sort(page.sort).limit(ROWS_PER_READ).lean<PositionRow[]>();
    for (const p of await presentRows(ctx, rows, query.status)) if (shown.length <= limit) shown.push(p);
    if (rows.length < ROWS_PER_READ) break;
    const last = rows[rows.length - 1];
    after = { at: new Date(last.first_at), id: last.key };
  }
  const hasMore = shown.length > limit;
  const page = shown.slice(0, limit);
  const last = page[page.length - 1];
  return {
    data: page.map((p) => p.position),
    next_cursor: hasMore && last ? encodeCursor({ at: new Date(last.row.first_at), id: last.row.key }) : '',
    has_more: hasMore,
  };
}

/** The rows as listed, in their order; rows of unknown markets or outside the status filter are left out. */
async function presentRows(ctx: OrderContext, rows: PositionRow[], status: PositionsQuery['status']): Promise<{ row: PositionRow; position: Record<string, unknown> }[]> {
  if (rows.length === 0) return [];
  const conditions = [...new Map(rows.map((r) => [`${r.chain_id}:${r.condition_id}`, { chain_id: r.chain_id, condition_id: r.condition_id }])).values()];
  const [markets, tickers] = await Promise.all([ctx.models.markets.find({ $or: conditions }).lean(), ctx.models.tickers.find({ $or: conditions }).lean()]);
  const marketOf = new Map(markets.map((m) => [`${m.chain_id}:${m.condition_id}`, m]));
  const lastOf = new Map(tickers.map((t) => [`${t.chain_id}:${t.condition_id}`, t.last_price]));
  const out: { row: PositionRow; position: Record<string, unknown> }[] = [];
  for (const row of rows) {
    const market = marketOf.get(`${row.chain_id}:${row.condition_id}`);
    if (!market) continue;
    const outcome = row.outcome;
    const token = market.tokens.find((t) => t.outcome === outcome);
    if (!token) continue;
    const resolved = market.status === 'RESOLVED' && market.resolution_outcome !== null;
    if (status === 'active' && resolved) continue;
    if (status === 'resolved' && !resolved) continue;
    const d = token.decimals;
    const scale = 10n ** BigInt(d);
    const state = stateOf(row);
    const avg = state.size === 0n ? 0n : state.cost / state.size;
    const mark = outcomePrice(market, outcome, lastOf.get(`${row.chain_id}:${row.condition_id}`) ?? null, d) ?? avg;
    let realized = state.realized;
    if (resolved) realized += state.size * mark - state.cost; // resolution realizes what is still held
    out.push({
      row,
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
  return out;
}
