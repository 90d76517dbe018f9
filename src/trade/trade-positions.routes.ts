import { Router } from 'express';
import type { Address } from 'viem';
import { noQueryParams, parseQuery } from '../http/query';
import { validateOrThrow } from '../validation/ajv';
import { listTradePositions } from './read-positions';
import { redeemOf } from './redeem';
import type { TradeDeps } from './trade-deps';
import { findTradeMarket } from './trade-market';
import { tradePositionsQuerySchema, validateRedeemBody, validateTradePositionsQuery } from './trade.schemas';

/** GET /trade/positions (public, from chain balances) and POST /trade/redeem (platform key). */
export function tradePositionsRoutes(deps: TradeDeps): Router {
  const router = Router();

  router.get('/trade/positions', async (req, res) => {
    const q = parseQuery(tradePositionsQuerySchema, validateTradePositionsQuery, req.query, { lowerCase: ['status'] });
    res.json(await listTradePositions(deps, q));
  });

  router.post('/trade/redeem', deps.requirePlatform, noQueryParams, async (req, res) => {
    const body = validateOrThrow(validateRedeemBody, req.body ?? {}, 'body');
    const market = await findTradeMarket(deps, body.chain_id, body.condition_id);
    res.json(await redeemOf(deps.chain, market, body.wallet as Address));
  });

  return router;
}
