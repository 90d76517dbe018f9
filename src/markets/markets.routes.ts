import { Router } from 'express';
import { parseQuery } from '../http/query';
import { validateOrThrow } from '../validation/ajv';
import { candlesOf } from '../candles/candle-store';
import { candlesQuerySchema, readCandles, validateCandlesQuery } from '../candles/read-candles';
import type { mongo } from 'mongoose';
import { languageOf } from './language';
import { findMarket, getBook, getMarket, getMarketTokens, getTicker, listMarkets, listTrades, MarketQueriesDeps } from './market-queries';
import {
  bookQuerySchema,
  listMarketsQuerySchema,
  marketQuerySchema,
  tradesQuerySchema,
  validateBookQuery,
  validateConditionIdParam,
  validateListMarketsQuery,
  validateMarketQuery,
  validateTradesQuery,
} from './market.schemas';

/** GET /v1/markets*: public (L0) market data. Mounted under /v1. */
export function marketsRoutes(deps: MarketQueriesDeps): Router {
  const router = Router();
  const conditionIdOf = (params: unknown) => validateOrThrow(validateConditionIdParam, params, 'path').condition_id;

  router.get('/markets', async (req, res) => {
    const q = parseQuery(listMarketsQuerySchema, validateListMarketsQuery, req.query, { lowerCase: ['status'] });
    res.json(await listMarkets(deps, { chainId: q.chain_id, status: q.status, cursor: q.cursor, limit: q.limit, language: languageOf(req.header('x-language')) }));
  });

  router.get('/markets/:condition_id', async (req, res) => {
    const conditionId = conditionIdOf(req.params);
    const q = parseQuery(marketQuerySchema, validateMarketQuery, req.query);
    res.json(await getMarket(deps, { conditionId, chainId: q.chain_id, language: languageOf(req.header('x-language')) }));
  });

  router.get('/markets/:condition_id/tokens', async (req, res) => {
    const conditionId = conditionIdOf(req.params);
    const q = parseQuery(marketQuerySchema, validateMarketQuery, req.query);
    res.json(await getMarketTokens(deps, { conditionId, chainId: q.chain_id }));
  });

  router.get('/markets/:condition_id/book', async (req, res) => {
    const conditionId = conditionIdOf(req.params);
    const q = parseQuery(bookQuerySchema, validateBookQuery, req.query);
    res.json(await getBook(deps, { conditionId, chainId: q.chain_id, depth: q.depth }));
  });

  router.get('/markets/:condition_id/ticker', async (req, res) => {
    const conditionId = conditionIdOf(req.params);
    const q = parseQuery(marketQuerySchema, validateMarketQuery, req.query);
    res.json(await getTicker(deps, { conditionId, chainId: q.chain_id }));
  });

  router.get('/markets/:condition_id/trades', async (req, res) => {
    const conditionId = conditionIdOf(req.params);
    const q = parseQuery(tradesQuerySchema, validateTradesQuery, req.query);
    res.json(await listTrades(deps, { conditionId, chainId: q.chain_id, cursor: q.cursor, limit: q.limit }));
  });

  router.get('/markets/:condition_id/candles', async (req, res) => {
    const conditionId = conditionIdOf(req.params);
    const q = parseQuery(candlesQuerySchema, validateCandlesQuery, req.query);
    const market = await findMarket(deps, { conditionId, chainId: q.chain_id });
    res.json(await readCandles(candlesOf(deps.store.markets.db.db as mongo.Db), market, q, (deps.now ?? (() => new Date()))()));
  });

  return router;
}
