import { Router } from 'express';
import { registry } from './metrics';

/** `GET /metrics`: this process's metrics in Prometheus text format. */
export function metricsRoutes(extra?: () => Promise<string>): Router {
  const router = Router();
  router.get('/metrics', async (_req, res) => {
    const own = await registry.metrics();
    const more = extra ? await extra().catch(() => '') : '';
    res.type(registry.contentType).send(more ? `${own}\n${more}` : own);
  });
  return router;
}
