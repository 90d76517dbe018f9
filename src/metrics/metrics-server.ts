/**
 * The worker's metrics port: `/metrics` (this process's metrics, then the Temporal SDK's own from
 * its loopback-only Prometheus endpoint), `/healthz` (the process is up) and `/readyz` (its
 * dependencies answer, else 503), like the API's.
 */
import express from 'express';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { errorHandler, notFoundHandler } from '../http/middleware/error-handler';
import { correlationId } from '../http/middleware/correlation-id';
import { healthRoutes, type ReadinessCheck } from '../http/health.routes';
import type { Logger } from '../logging/logger';
import { metricsRoutes } from './metrics.routes';

export interface MetricsServerOptions {
  host: string;
  port: number;
  logger: Logger;
  readiness: ReadinessCheck[];
  /** URL of the Temporal SDK's Prometheus endpoint, appended to /metrics. */
  sdkMetricsUrl?: string;
}

export interface RunningMetricsServer {
  url: string;
  close(): Promise<void>;
}

export async function startMetricsServer(options: MetricsServerOptions): Promise<RunningMetricsServer> {
  const app = express();
  app.disable('x-powered-by');
  app.use(correlationId);
  app.use(healthRoutes(options.readiness));
  const sdk = options.sdkMetricsUrl;
  app.use(metricsRoutes(sdk ? async () => (await fetch(sdk, { signal: AbortSignal.timeout(2_000) })).text() : undefined));
  app.use(notFoundHandler);
  app.use(errorHandler(options.logger));
  const http: Server = createServer(app);
  await new Promise<void>((resolve, reject) => {
    http.once('error', reject);
    http.listen(options.port, options.host, () => resolve());
  });
  const { port } = http.address() as AddressInfo;
  return {
    url: `http://${options.host}:${port}`,
    close: () => new Promise<void>((resolve) => {
      http.close(() => resolve());
      http.closeAllConnections();
    }),
  };
}
