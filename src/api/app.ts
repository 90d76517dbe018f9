import express, { Express, RequestHandler, Router } from 'express';
import type { Logger } from '../logging/logger';
import { correlationId } from '../http/middleware/correlation-id';
import { errorHandler, notFoundHandler } from '../http/middleware/error-handler';
import { requestLog } from '../http/middleware/request-log';
import { healthRoutes, ReadinessCheck } from '../http/health.routes';
import { httpMetrics } from './http-metrics';
import { metricsRoutes } from '../metrics/metrics.routes';

/** Largest JSON body accepted: 15 signed orders fit in a few KB; anything far larger is abuse. */
export const MAX_BODY_BYTES = 256 * 1024;

export interface AppDeps {
  logger: Logger;
  readiness: ReadinessCheck[];
  /** Routers mounted under /v1, in order. */
  v1Routers?: Router[];
  /** Routers mounted at the root (e.g. /admin, /docs). */
  rootRouters?: Router[];
  /** Per-address REST rate limit (rate-limits.ts), checked before the body is parsed. */
  limitByIp?: RequestHandler;
}

/**
 * What every request passes before its body is read: correlation id, metrics, the request log and
 * the per-address limit. The lean path (lean-routes.ts) runs the same list.
 */
export function requestFront(deps: Pick<AppDeps, 'logger' | 'limitByIp'>): RequestHandler[] {
  return [correlationId, httpMetrics(), requestLog(deps.logger), ...(deps.limitByIp ? [deps.limitByIp] : [])];
}

/** Builds the Express app: correlation id, logs, JSON parsing, routes, then the error envelope. */
export function createApp(deps: AppDeps): Express {
  const app = express();
  app.disable('x-powered-by');
  app.set('query parser', 'extended');
  app.use(requestFront(deps));
  app.use(express.json({ limit: MAX_BODY_BYTES, strict: true }));
  app.use(healthRoutes(deps.readiness));
  app.use(metricsRoutes());
  const v1 = Router();
  for (const router of deps.v1Routers ?? []) v1.use(router);
  app.use('/v1', v1);
  for (const router of deps.rootRouters ?? []) app.use(router);
  app.use(notFoundHandler);
  app.use(errorHandler(deps.logger));
  return app;
}
