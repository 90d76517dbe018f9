import { Router } from 'express';
import { parseQuery } from '../http/query';
import type { OrderContext, OrderEntryDeps } from './context';
import { balancesQuerySchema, readBalances, validateBalancesQuery } from './read-balances';
import { walletOf } from './request-wallet';

export function balancesRoutes(ctx: OrderContext, requireL2: OrderEntryDeps['requireL2']): Router {
  const router = Router();
  router.get('/balances', requireL2('read'), async (req, res) => {
    const query = parseQuery(balancesQuerySchema, validateBalancesQuery, req.query);
    res.json(await readBalances(ctx, walletOf(req), query));
  });
  return router;
}
