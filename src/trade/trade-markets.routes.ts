import { Router } from 'express';
import { checkLimit, decodeCursor, pageQuery, toPage } from '../http/pagination';
import { parseQuery } from '../http/query';
import type { MarketRecord, TickerRecord } from '../db/models';
import { languageOf } from '../markets/language';
import { presentMarket } from '../markets/present-market';
import { ammViewsOf, marketKey } from '../amm/amm-market-view';
import type { TradeDeps } from './trade-deps';
import { tradeMarketsQuerySchema, validateTradeMarketsQuery } from './trade.schemas';

/** GET /trade/markets (public): markets of both kinds; CLOB items carry their best bid, ask and last price (YES). */
export function tradeMarketsRoutes(deps: Pick<TradeDeps, 'store' | 'chains' | 'poolStates'>): Router {
  const router = Router();
  router.get('/trade/markets', async (req, res) => {
    const q = parseQuery(tradeMarketsQuerySchema, validateTradeMarketsQuery, req.query, { lowerCase: ['status', 'kind'] });
    if (q.chain_id !== undefined) deps.chains.require(q.chain_id);
    const limit = checkLimit(q.limit);
    const page = pageQuery(decodeCursor(q.cursor), 'created_at', 'condition_id');
    const filter: Record<string, unknown> = { status: q.status.toUpperCase(), ...page.filter };
    if (q.kind !== 'all') filter.kind = q.kind.toUpperCase();
    if (q.chain_id !== undefined) filter.chain_id = q.chain_id;
    const rows = await deps.store.markets.find(filter).sort(page.sort).limit(limit + 1).lean<MarketRecord[]>().exec();
    const shown = rows.slice(0, limit);
    const [tickers, amm] = await Promise.all([
      shown.length
        ? deps.store.tickers.find({ $or: shown.map((m) => ({ chain_id: m.chain_id, condition_id: m.condition_id })) }).lean<TickerRecord[]>().exec()
        : [],
      ammViewsOf(shown, deps.poolStates),
    ]);
    const tickerOf = new Map(tickers.map((t) => [marketKey(t), t]));
    const language = languageOf(req.header('x-language'));
    res.json(toPage(rows, limit, (m) => ({ at: m.created_at, id: m.condition_id }), (m) => {
      const ticker = tickerOf.get(marketKey(m)) ?? null;
      const market = { ...presentMarket(m, ticker, language, amm.get(marketKey(m))), kind: m.kind };
      if (m.kind !== 'CLOB') return market;
      return { ...market, best_bid: ticker?.best_bid ?? null, best_ask: ticker?.best_ask ?? null, last_price: ticker?.last_price ?? null };
    }));
  });
  return router;
}
