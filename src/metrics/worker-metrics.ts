/**
 * The worker's metrics port. The Temporal SDK's own metrics (task slots, poll and schedule
 * latencies, sticky cache) come from its Prometheus exporter, bound to a free loopback port and
 * served through this one, so a worker has one scrape target.
 */
import type { RuntimeOptions } from '@temporalio/worker';
import { freePort } from '../embedded/free-port';
import type { ReadinessCheck } from '../http/health.routes';
import type { Logger } from '../logging/logger';
import { startMetricsServer, type RunningMetricsServer } from './metrics-server';

export interface SdkTelemetry {
  telemetryOptions?: RuntimeOptions['telemetryOptions'];
  url?: string;
}

/** Telemetry options for Runtime.install: the SDK's exporter on loopback when metrics are on. */
export async function sdkTelemetry(metricsPort: number): Promise<SdkTelemetry> {
  if (!metricsPort) return {};
  const port = await freePort('127.0.0.1');
  return {
    telemetryOptions: { metrics: { metricPrefix: 'temporal_', prometheus: { bindAddress: `127.0.0.1:${port}`, countersTotalSuffix: true, useSecondsForDurations: true } } },
    url: `http://127.0.0.1:${port}/metrics`,
  };
}

/** Starts the metrics port; a port already in use costs the metrics, not the worker. */
export async function startWorkerMetrics(o: { host: string; port: number; logger: Logger; readiness: ReadinessCheck[]; sdk: SdkTelemetry }): Promise<RunningMetricsServer | undefined> {
  if (!o.port) return undefined;
  try {
    const server = await startMetricsServer({ host: o.host, port: o.port, logger: o.logger, readiness: o.readiness, sdkMetricsUrl: o.sdk.url });
    o.logger.info({ url: server.url }, 'worker metrics listening');
    return server;
  } catch (error) {
    o.logger.warn({ err: error, port: o.port }, 'worker metrics port unavailable: running without it');
    return undefined;
  }
}
