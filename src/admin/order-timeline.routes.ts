import { Router } from 'express';
import { validateOrderHashParam } from '../orders/order.schema';
import { temporalUiUrlFor } from '../config/temporal-ui-url';
import { readOrderTimeline, type OrderTimelineDeps } from '../ops/order-timeline';
import { validateOrThrow } from '../validation/ajv';
import { requireAdminToken } from './admin-auth';

/** `GET /admin/orders/{order_hash}/timeline`: an order's whole story with its workflows (`npm run ops -- order`). */
export function orderTimelineRoutes(deps: OrderTimelineDeps & { adminToken: string }): Router {
  const router = Router();
  router.get('/admin/orders/:order_hash/timeline', requireAdminToken(deps.adminToken), async (req, res) => {
    const { order_hash } = validateOrThrow(validateOrderHashParam, req.params, 'path');
    // An operator reaches the UI by the host they reached the API by when it listens on every interface.
    res.json(await readOrderTimeline({ ...deps, uiUrl: temporalUiUrlFor(deps.uiUrl, req.hostname) }, order_hash));
  });
  return router;
}
