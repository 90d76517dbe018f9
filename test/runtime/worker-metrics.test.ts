import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { freePort } from '../../src/embedded/free-port';
import { createLogger } from '../../src/logging/logger';
import { startWorkerMetrics } from '../../src/metrics/worker-metrics';

const logger = createLogger({ level: 'silent' });

describe('the worker metrics port', () => {
  let sdk: Server;
  let sdkUrl: string;
  let ready = true;

  beforeAll(async () => {
    // Stands in for the Temporal SDK's Prometheus exporter.
    sdk = createServer((_req, res) => res.end('# TYPE temporal_worker_task_slots_available gauge\ntemporal_worker_task_slots_available 7\n'));
    await new Promise<void>((resolve) => sdk.listen(0, '127.0.0.1', () => resolve()));
    sdkUrl = `http://127.0.0.1:${(sdk.address() as AddressInfo).port}/metrics`;
  });
  afterAll(() => new Promise<void>((resolve) => sdk.close(() => resolve())));

  const start = async (port: number) =>
    startWorkerMetrics({
      host: '127.0.0.1', port, logger, sdk: { url: sdkUrl },
      readiness: [{ name: 'workers', check: async () => { if (!ready) throw new Error('not polling'); } }],
    });

  it('when scraped, then it serves its own metrics and the SDK\'s, and health and readiness', async () => {
    const server = (await start(await freePort()))!;
    try {
      const metrics = await (await fetch(`${server.url}/metrics`)).text();
      expect(metrics).toContain('predex_process_cpu_seconds_total');
      expect(metrics).toContain('temporal_worker_task_slots_available 7');
      expect((await fetch(`${server.url}/healthz`)).status).toBe(200);
      expect((await fetch(`${server.url}/readyz`)).status).toBe(200);
      ready = false;
      const notReady = await fetch(`${server.url}/readyz`);
      expect([notReady.status, ((await notReady.json()) as { code: string }).code]).toEqual([503, 'SERVICE_DEGRADED']);
    } finally {
      ready = true;
      await server.close();
    }
  });

  it('when its port is taken, then the worker goes on without it', async () => {
    const port = await freePort();
    const first = (await start(port))!;
    try {
      await expect(start(port)).resolves.toBeUndefined();
    } finally {
      await first.close();
    }
  });

  it('when the port is 0, then no metrics server starts', async () => {
    await expect(start(0)).resolves.toBeUndefined();
  });
});
