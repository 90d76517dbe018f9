/**
 * GET /trade/positions: what the wallet holds on chain, market by market (newest market first),
 * whichever way it got the tokens. Balances come from one `balanceOfBatch` per chunk of markets,
 * at most MAX_SCANNED_MARKETS markets per request; average prices from the trades the service
 * knows (the wallet's fills and the pool trades of saved transactions).
 */
import type { Address } from 'viem';
import { checkLimit, decodeCursor, encodeCursor, pageQuery, type Page } from '../http/pagination';
import type { MarketRecord, SavedTradeModel, TickerRecord } from '../db/models';
import type { MarketStore } from '../markets/market-store';
import type { ChainRegistry } from '../markets/chains';
import { formatCanonical, parseUnitsStrict } from '../money';
import type { FillReadModel } from '../orders/models/fill.model';
import { foldFills } from '../positions/position-fold';
import { decimalsOf } from './clob-quote-of-market';
import { tokenIdsOf } from './redeem';
import type { TradeChain } from './trade-chain';
import type { TradePositionsQuery } from './trade.schemas';

export interface PositionsDeps {
  store: MarketStore;
  chains: ChainRegistry;
  chain: TradeChain;
  fills: FillReadModel;
  savedTrades: SavedTradeModel;
}

/** 100 markets = 200 token ids per `balanceOfBatch`; a page reads at most 10 of them. */
const CHUNK = 100;
const MAX_SCANNED_MARKETS = 1000;

interface Held {
  market: MarketRecord;
  outcome: 0 | 1;
  size: bigint;
}

/** Markets after the cursor's market, newest first, in chunks; the cursor's own market first when its YES is still due. */
async function heldPositions(deps: PositionsDeps, q: TradePositionsQuery, wallet: Address, want: number): Promise<{ held: Held[]; scannedAll: boolean; last?: MarketRecord }> {
  const cursor = decodeCursor(q.cursor);
  const [cursorMarket, cursorOutcome] = (cursor?.id ?? '').split('#');
  const base: Record<string, unknown> = {};
  if (q.status === 'active') base.status = { $ne: 'RESOLVED' };
  if (q.status === 'resolved') base.status = 'RESOLVED';
  if (q.chain_id !== undefined) base.chain_id = q.chain_id;
  const page = pageQuery(cursor ? { at: cursor.at, id: cursorMarket } : undefined, 'created_at', 'condition_id');
  const held: Held[] = [];
  let scanned = 0;
  let last: MarketRecord | undefined;
  let after = page.filter;
  let resumeYesOf = cursor && cursorOutcome === '0' ? cursorMarket : undefined;
  while (held.length < want && scanned < MAX_SCANNED_MARKETS) {
    const resumed = resumeYesOf ? await deps.store.markets.find({ ...base, condition_id: resumeYesOf, created_at: cursor!.at }).lean<MarketRecord[]>().exec() : [];
    const rows = await deps.store.markets.find({ ...base, ...after }).sort(page.sort).limit(CHUNK).lean<MarketRecord[]>().exec();
    const markets = [...resumed, ...rows];
    if (markets.length === 0) return { held, scannedAll: true, last };
    const ids = markets.flatMap(tokenIdsOf);
    const balances = await deps.chain.balancesOf(markets[0].conditional_tokens_address as Address, wallet, ids);
    markets.forEach((market, i) => {
      for (const outcome of [0, 1] as const) {
        if (market.condition_id === resumeYesOf && outcome === 0) continue;
        if (balances[i * 2 + outcome] > 0n) held.push({ market, outcome, size: balances[i * 2 + outcome] });
      }
    });
    resumeYesOf = undefined;
    scanned += markets.length;
    last = markets[markets.length - 1];
    if (rows.length < CHUNK) return { held, scannedAll: true, last };
    after = pageQuery({ at: last.created_at, id: last.condition_id }, 'created_at', 'condition_id').filter;
  }
  return { held, scannedAll: false, last };
}

/** Average buy price per `chain:condition:outcome` from fills and saved pool trades. */
async function averagePrices(deps: PositionsDeps, wallet: string, held: Held[]): Promise<Map<string, string | null>> {
  const out = new Map<string, string | null>();
  if (held.length === 0) return out;
  const markets = [...new Map(held.map((h) => [`${h.market.chain_id}:${h.market.condition_id}`, h.market])).values()];
  const scope = { wallet, $or: markets.map((m) => ({ chain_id: m.chain_id, condition_id: m.condition_id })) };
  const [fills, saved] = await Promise.all([
    deps.fills.find({ ...scope, settlement_status: { $ne: 'FAILED' } }).lean().exec(),
    deps.savedTrades.find(scope).lean().exec(),
  ]);
  const trades = [...fills, ...saved].sort((a, b) => new Date(a.created_at).getTime() - new Date(b.created_at).getTime());
  for (const h of held) {
    const decimals = decimalsOf(h.market);
    const mine = trades.filter((t) => t.chain_id === h.market.chain_id && t.condition_id === h.market.condition_id && Number(t.outcome) === h.outcome);
    const state = foldFills(mine, decimals);
    out.set(`${h.market.chain_id}:${h.market.condition_id}:${h.outcome}`, state.size > 0n ? formatCanonical(state.cost / state.size, decimals) : null);
  }
  return out;
}

function currentPrice(market: MarketRecord, outcome: 0 | 1, ticker: TickerRecord | undefined): bigint | null {
  const scale = 10n ** BigInt(decimalsOf(market));
  if (market.status === 'RESOLVED' && market.resolution_outcome !== null) return market.resolution_outcome === outcome ? scale : 0n;
  if (!ticker?.last_price) return null;
  const yes = parseUnitsStrict(ticker.last_price, decimalsOf(market));
  return outcome === 1 ? yes : scale - yes;
}

export async function listTradePositions(deps: PositionsDeps, q: TradePositionsQuery): Promise<Page<Record<string, unknown>>> {
  if (q.chain_id !== undefined) deps.chains.require(q.chain_id);
  const limit = checkLimit(q.limit);
  const wallet = q.wallet.toLowerCase() as Address;
  const { held, scannedAll, last } = await heldPositions(deps, q, wallet, limit + 1);
  const shown = held.slice(0, limit);
  const [averages, tickers] = await Promise.all([
    averagePrices(deps, wallet, shown),
    shown.length
      ? deps.store.tickers.find({ $or: shown.map((h) => ({ chain_id: h.market.chain_id, condition_id: h.market.condition_id })) }).lean<TickerRecord[]>().exec()
      : Promise.resolve([] as TickerRecord[]),
  ]);
  const tickerOf = new Map(tickers.map((t) => [`${t.chain_id}:${t.condition_id}`, t]));
  const data = shown.map(({ market, outcome, size }) => {
    const decimals = decimalsOf(market);
    const price = currentPrice(market, outcome, tickerOf.get(`${market.chain_id}:${market.condition_id}`));
    return {
      condition_id: market.condition_id,
      chain_id: market.chain_id,
      kind: market.kind,
      outcome,
      outcome_label: outcome === 1 ? 'YES' : 'NO',
      token_id: tokenIdsOf(market)[outcome].toString(),
      size: formatCanonical(size, decimals),
      avg_price: averages.get(`${market.chain_id}:${market.condition_id}:${outcome}`) ?? null,
      current_price: price === null ? null : formatCanonical(price, decimals),
      current_value: price === null ? null : formatCanonical((size * price) / 10n ** BigInt(decimals), decimals),
      redeemable: market.status === 'RESOLVED' && market.resolution_outcome === outcome,
    };
  });
  const more = held.length > limit || !scannedAll;
  // Next page: after the last position shown, or after the last market scanned when the scan bound stopped it.
  const lastShown = shown[shown.length - 1];
  const key = held.length > limit && lastShown
    ? { at: lastShown.market.created_at, id: `${lastShown.market.condition_id}#${lastShown.outcome}` }
    : last ? { at: last.created_at, id: `${last.condition_id}#1` } : undefined;
  return { data, next_cursor: more && key ? encodeCursor(key) : '', has_more: more && key !== undefined };
}
