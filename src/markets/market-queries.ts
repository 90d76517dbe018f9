import { AppError } from '../errors';
import type { MarketRecord, MarketStatus, TickerRecord } from '../db/models';
import { formatCanonical } from '../money';
import { checkLimit, decodeCursor, Page, pageQuery, toPage } from '../http/pagination';
import type { ChainRegistry } from './chains';
import type { Language } from './language';
import type { MarketStore } from './market-store';
import { AdminMarketView, MarketView, presentAdminMarket, presentMarket, presentTokens, TokenView } from './present-market';
import { tickerValues, TickerValues } from './ticker-math';
import { ammViewsOf, marketKey, type PoolStatesFor } from '../amm/amm-market-view';

/** The read side of market data (all L0). Chains outside the registry and unknown markets are NOT_FOUND. */
export interface MarketQueriesDeps {
  store: MarketStore;
  chains: ChainRegistry;
  now?: () => Date;
  /** Cached pool state per chain for AMM markets' `amm.prices` (absent: prices null). */
  poolStates?: PoolStatesFor;
}

type Ref = { conditionId: string; chainId?: number };

export async function findMarket(deps: MarketQueriesDeps, ref: Ref): Promise<MarketRecord> {
  const chain = deps.chains.require(ref.chainId);
  const market = await deps.store.markets
    .findOne({ chain_id: chain.chain_id, condition_id: ref.conditionId.toLowerCase() })
    .lean<MarketRecord>()
    .exec();
  if (!market) throw new AppError('NOT_FOUND', 'Market not found');
  return market;
}

async function tickersOf(deps: Pick<MarketQueriesDeps, 'store'>, markets: MarketRecord[]): Promise<Map<string, TickerRecord>> {
  if (markets.length === 0) return new Map();
  const rows = await deps.store.tickers
    .find({ $or: markets.map((m) => ({ chain_id: m.chain_id, condition_id: m.condition_id })) })
    .lean<TickerRecord[]>()
    .exec();
  return new Map(rows.map((t) => [`${t.chain_id}:${t.condition_id}`, t]));
}

export async function listMarkets(
  deps: MarketQueriesDeps,
  input: { chainId?: number; status: Lowercase<Exclude<MarketStatus, 'SEEDING'>>; cursor?: string; limit?: number; language: Language },
): Promise<Page<MarketView>> {
  if (input.chainId !== undefined) deps.chains.require(input.chainId);
  const limit = checkLimit(input.limit);
  const page = pageQuery(decodeCursor(input.cursor), 'created_at', 'condition_id');
  const filter: Record<string, unknown> = { status: input.status.toUpperCase(), ...page.filter };
  if (input.chainId !== undefined) filter.chain_id = input.chainId;
  const rows = await deps.store.markets.find(filter).sort(page.sort).limit(limit + 1).lean<MarketRecord[]>().exec();
  const [tickers, amm] = await Promise.all([tickersOf(deps, rows.slice(0, limit)), ammViewsOf(rows.slice(0, limit), deps.poolStates)]);
  return toPage(
    rows,
    limit,
    (m) => ({ at: m.created_at, id: m.condition_id }),
    (m) => presentMarket(m, tickers.get(marketKey(m)) ?? null, input.language, amm.get(marketKey(m))),
  );
}

/** The operator's list (/admin/markets): every status, SEEDING included, or one; newest first. */
export async function listAdminMarkets(
  deps: MarketQueriesDeps,
  input: { chainId?: number; status: Lowercase<MarketStatus> | 'all'; cursor?: string; limit?: number },
): Promise<Page<AdminMarketView>> {
  if (input.chainId !== undefined) deps.chains.require(input.chainId);
  const limit = checkLimit(input.limit);
  const page = pageQuery(decodeCursor(input.cursor), 'created_at', 'condition_id');
  const filter: Record<string, unknown> = { ...page.filter };
  if (input.status !== 'all') filter.status = input.status.toUpperCase();
  if (input.chainId !== undefined) filter.chain_id = input.chainId;
  const rows = await deps.store.markets.find(filter).sort(page.sort).limit(limit + 1).lean<MarketRecord[]>().exec();
  const [tickers, amm] = await Promise.all([tickersOf(deps, rows.slice(0, limit)), ammViewsOf(rows.slice(0, limit), deps.poolStates)]);
  return toPage(rows, limit, (m) => ({ at: m.created_at, id: m.condition_id }), (m) => presentAdminMarket(m, tickers.get(marketKey(m)) ?? null, amm.get(marketKey(m))));
}

export async function getMarket(deps: MarketQueriesDeps, ref: Ref & { language: Language }): Promise<MarketView> {
  const market = await findMarket(deps, ref);
  return presentMarketNow(deps, market, ref.language);
}

/** One market as the API shows it now: with its ticker and, for AMM markets, its pool's prices. */
export async function presentMarketNow(deps: MarketQueriesDeps, market: MarketRecord, language: Language): Promise<MarketView> {
  const [tickers, amm] = await Promise.all([tickersOf(deps, [market]), ammViewsOf([market], deps.poolStates)]);
  return presentMarket(market, tickers.get(marketKey(market)) ?? null, language, amm.get(marketKey(market)));
}

export async function getMarketTokens(
  deps: MarketQueriesDeps,
  ref: Ref,
): Promise<{ condition_id: string; chain_id: number; tokens: TokenView[] }> {
  const market = await findMarket(deps, ref);
  return { condition_id: market.condition_id, chain_id: market.chain_id, tokens: presentTokens(market.tokens) };
}

function decimalsOf(market: MarketRecord): number {
  return market.tokens[0]?.decimals ?? 18;
}

export interface BookLevelView {
  price: string;
  remainingSize: string;
}

export interface BookSnapshotView {
  condition_id: string;
  chain_id: number;
  timestamp: string;
  seq: number;
  bids: BookLevelView[];
  asks: BookLevelView[];
}

/**
 * The book snapshot. Without transactions, the matcher writes levels and then bumps the book's
 * seq; reading seq before and after the levels and retrying on a change gives a consistent view.
 */
export async function getBook(deps: MarketQueriesDeps, ref: Ref & { depth: number }): Promise<BookSnapshotView> {
  const market = await findMarket(deps, ref);
  const key = { chain_id: market.chain_id, condition_id: market.condition_id };
  const decimals = decimalsOf(market);
  const readSeq = async () => (await deps.store.bookStates.findOne(key).lean().exec())?.seq ?? 0;
  const readSide = async (side: 'BID' | 'ASK') => {
    const rows = await deps.store.bookLevels
      .find({ ...key, side, remaining: { $nin: ['0', ''] } })
      .sort({ ticks: side === 'BID' ? -1 : 1 })
      .limit(ref.depth)
      .lean()
      .exec();
    return rows.map((l) => ({ price: l.price, remainingSize: formatCanonical(BigInt(l.remaining), decimals) }));
  };
  for (let attempt = 0; ; attempt += 1) {
    const before = await readSeq();
    const [bids, asks] = await Promise.all([readSide('BID'), readSide('ASK')]);
    const after = await readSeq();
    if (before === after || attempt >= 4) {
      return { ...key, timestamp: (deps.now?.() ?? new Date()).toISOString(), seq: after, bids, asks };
    }
  }
}

export type StandaloneTickerView = { condition_id: string; chain_id: number; timestamp: string } & TickerValues;

export async function getTicker(deps: MarketQueriesDeps, ref: Ref): Promise<StandaloneTickerView> {
  const market = await findMarket(deps, ref);
  const record = await deps.store.tickers
    .findOne({ chain_id: market.chain_id, condition_id: market.condition_id })
    .lean<TickerRecord>()
    .exec();
  return {
    condition_id: market.condition_id,
    chain_id: market.chain_id,
    ...tickerValues(record),
    timestamp: (record?.updated_at ?? deps.now?.() ?? new Date()).toISOString(),
  };
}

export interface PublicTradeView {
  trade_id: string;
  condition_id: string;
  chain_id: number;
  price: string;
  size: string;
  created_at: string;
}

export async function listTrades(
  deps: MarketQueriesDeps,
  ref: Ref & { cursor?: string; limit?: number },
): Promise<Page<PublicTradeView>> {
  const market = await findMarket(deps, ref);
  const limit = checkLimit(ref.limit);
  const decimals = decimalsOf(market);
  const page = pageQuery(decodeCursor(ref.cursor), 'created_at', 'trade_id');
  const rows = await deps.store.trades
    .find({ chain_id: market.chain_id, condition_id: market.condition_id, settlement_status: 'CONFIRMED', ...page.filter })
    .sort(page.sort)
    .limit(limit + 1)
    .lean()
    .exec();
  return toPage(
    rows,
    limit,
    (t) => ({ at: t.created_at, id: t.trade_id }),
    (t) => ({
      trade_id: t.trade_id,
      condition_id: t.condition_id,
      chain_id: t.chain_id,
      price: t.price,
      size: formatCanonical(BigInt(t.size), decimals),
      created_at: t.created_at.toISOString(),
    }),
  );
}
