import { Router } from 'express';
import { validateOrderHashParam } from '../orders/order.schema';
import { readOrderTimeline, type OrderTimelineDeps } from '../ops/order-timeline';
import { validateOrThrow } from '../validation/ajv';
import { requireAdminToken } from './admin-auth';

/** `GET /admin/orders/{order_hash}/timeline`: an order's whole story with its workflows (`npm run ops -- order`). */
export function orderTimelineRoutes(deps: OrderTimelineDeps & { adminToken: string }): Router {
  const router = Router();
  router.get('/admin/orders/:order_hash/timeline', requireAdminToken(deps.adminToken), async (req, res) => {
    const { order_hash } = validateOrThrow(validateOrderHashParam, req.params, 'path');
    res.json(await readOrderTimeline(deps, order_hash));
  });
  return router;
}
