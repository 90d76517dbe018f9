import { Router } from 'express';
import type { Address } from 'viem';
import { noQueryParams } from '../http/query';
import { AppError } from '../errors';
import type { MarketRecord } from '../db/models';
import { validateOrThrow } from '../validation/ajv';
import type { AmmVenue } from './amm-venue-port';
import { quoteClobMarket } from './clob-quote-of-market';
import { buildClobTrade } from './clob-trade';
import type { TradeDeps } from './trade-deps';
import { findQuotedMarket, findTradeMarket, requireOpen } from './trade-market';
import { validateQuoteBody, validateTradeBody } from './trade.schemas';

function ammOf(deps: Pick<TradeDeps, 'amm'>, market: MarketRecord): AmmVenue {
  if (!deps.amm) throw new AppError('MARKET_NOT_ACTIVE', 'AMM trading is not available on this service');
  return deps.amm;
}

/** POST /trade/quote (public) and POST /trade (platform key): the market's venue prices the trade. */
export function tradeQuoteRoutes(deps: TradeDeps): Router {
  const router = Router();

  router.post('/trade/quote', noQueryParams, async (req, res) => {
    const body = validateOrThrow(validateQuoteBody, req.body ?? {}, 'body');
    const market = await findQuotedMarket(deps, body.chain_id, body.condition_id);
    requireOpen(market);
    const request = { outcome: body.outcome, side: body.side, amount: body.amount };
    if (market.kind === 'AMM') {
      res.json(await ammOf(deps, market).quote(market, request));
      return;
    }
    res.json((await quoteClobMarket(deps.store, market, request, deps.books)).body);
  });

  router.post('/trade', deps.requirePlatform, noQueryParams, async (req, res) => {
    const body = validateOrThrow(validateTradeBody, req.body ?? {}, 'body');
    const market = await findTradeMarket(deps, body.chain_id, body.condition_id);
    requireOpen(market);
    const wallet = body.wallet as Address;
    const request = { outcome: body.outcome, side: body.side, amount: body.amount };
    if (market.kind === 'AMM') {
      res.json(await ammOf(deps, market).trade(market, { ...request, wallet, slippage_bps: body.slippage_bps }));
      return;
    }
    const [quoted, nonce] = await Promise.all([quoteClobMarket(deps.store, market, request), deps.chain.nonceOf(wallet)]);
    res.json(buildClobTrade(market, quoted, { side: body.side, outcome: body.outcome, wallet, slippageBps: body.slippage_bps, nonce }));
  });

  return router;
}
