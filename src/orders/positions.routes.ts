import { Router } from 'express';
import { parseQuery } from '../http/query';
import type { OrderContext, OrderEntryDeps } from './context';
import { positionsQuerySchema, validatePositionsQuery } from './order.schema';
import { listPositions } from './positions';
import { walletOf } from './request-wallet';

export function positionsRoutes(ctx: OrderContext, requireL2: OrderEntryDeps['requireL2']): Router {
  const router = Router();
  router.get('/positions', requireL2('read'), async (req, res) => {
    const query = parseQuery(positionsQuerySchema, validatePositionsQuery, req.query, { lowerCase: ['status'] });
    res.json(await listPositions(ctx, walletOf(req), query));
  });
  return router;
}
