import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'yaml';
import { TEMPORAL_DYNAMIC_CONFIG } from '../../src/embedded/temporal-dev-server';
import { SEARCH_ATTRIBUTES } from '../../src/temporal/search-attributes';

const root = join(__dirname, '..', '..');

interface Service {
  image?: string;
  build?: unknown;
  command?: unknown;
  environment?: Record<string, string>;
  ports?: string[];
  volumes?: string[];
  restart?: string;
  healthcheck?: { test: string[] };
  depends_on?: Record<string, { condition: string }> | string[];
}

describe('docker-compose deployment', () => {
  // merge: the API's environment extends the shared one with `<<: *service-env`.
  const compose = parse(readFileSync(join(root, 'docker-compose.yml'), 'utf8'), { merge: true }) as {
    services: Record<string, Service>;
  };

  it('when parsed, then it defines MongoDB, Temporal with its UI, the API and the worker', () => {
    expect(Object.keys(compose.services)).toEqual(expect.arrayContaining(['mongodb', 'temporal', 'temporal-ui', 'api', 'worker']));
    expect(compose.services.mongodb.image).toMatch(/^mongo:/);
    expect(JSON.stringify(compose.services.mongodb.command)).toContain('--replSet');
    expect(compose.services.api.build).toBeDefined();
    expect(compose.services.worker.build).toBeDefined();
  });

  it('when the README names compose services, then each one exists', () => {
    const readme = readFileSync(join(root, 'README.md'), 'utf8');
    const section = readme.split('## Production-like deployment')[1]?.split('\n## ')[0] ?? '';
    const named = [...section.matchAll(/`compose:([a-z-]+)`/g)].map((m) => m[1]);
    expect(named.length).toBeGreaterThan(0);
    for (const name of named) expect(Object.keys(compose.services)).toContain(name);
  });

  it('when the API and worker run in compose, then they point at the compose servers', () => {
    for (const name of ['api', 'worker']) {
      const env = compose.services[name].environment ?? {};
      expect(env.MONGODB_URI).toContain('mongodb:27017');
      expect(env.TEMPORAL_ADDRESS).toBe('temporal:7233');
    }
  });

  it('when the compose Temporal server starts, then it reads the dynamic config the embedded server is started with', () => {
    const temporal = compose.services.temporal as { environment?: Record<string, string>; volumes?: string[] };
    const path = temporal.environment?.DYNAMIC_CONFIG_FILE_PATH ?? '';
    const mount = (temporal.volumes ?? []).find((v) => v.split(':')[1] === `/etc/temporal/${path}`);
    expect(mount).toBeDefined();
    const file = parse(readFileSync(join(root, mount!.split(':')[0]), 'utf8')) as Record<string, { value: unknown }[]>;
    for (const [key, value] of Object.entries(TEMPORAL_DYNAMIC_CONFIG)) expect([key, file[key]?.[0]?.value]).toEqual([key, value]);
  });

  it('when the worker runs in compose, then it preloads what the supervisor preloads: no workflow stack traces', () => {
    const command = compose.services.worker.command as string[];
    const preload = command[command.indexOf('--require') + 1] ?? '';
    expect(preload).toBe('./dist/src/temporal/no-workflow-stack-traces.js');
    expect(existsSync(join(root, preload.replace('./dist/', '').replace(/\.js$/, '.ts')))).toBe(true);
    expect(command[command.length - 1]).toBe('dist/workers/main.js');
  });

  it('when published, then no database, Temporal or Prometheus port is open beyond the host itself', () => {
    for (const [name, service] of Object.entries(compose.services)) {
      for (const port of service.ports ?? []) {
        // "host:container" publishes on every interface; "127.0.0.1:host:container" on loopback only.
        const everywhere = port.split(':').length === 2;
        if (everywhere) expect([name, port]).toEqual([expect.stringMatching(/^(api|grafana)$/), port]);
      }
    }
    for (const name of ['mongodb', 'postgresql', 'temporal']) expect([name, compose.services[name].ports]).toEqual([name, undefined]);
  });

  it('when the API runs in compose, then it advertises its push port under its service name', () => {
    const env = compose.services.api.environment ?? {};
    const url = new URL(env.REALTIME_PUSH_URL);
    expect([url.hostname, url.port]).toEqual(['api', env.REALTIME_PUSH_PORT]);
  });

  it('when the API and worker start, then they wait for the search attributes, restart and report health', () => {
    for (const name of ['api', 'worker']) {
      const service = compose.services[name];
      expect((service.depends_on as Record<string, { condition: string }>)['temporal-setup']).toEqual({ condition: 'service_completed_successfully' });
      expect(service.restart).toBe('unless-stopped');
      expect(service.healthcheck?.test.join(' ')).toContain('/readyz');
    }
    expect(compose.services.worker.healthcheck?.test.join(' ')).toContain(`:${compose.services.worker.environment?.WORKER_METRICS_PORT}/readyz`);
    const setup = JSON.stringify(compose.services['temporal-setup'].command);
    for (const name of Object.keys(SEARCH_ATTRIBUTES)) expect(setup).toContain(name);
  });

  it('when Prometheus runs in compose, then it scrapes the API and the worker on their metrics ports', () => {
    const mount = (compose.services.prometheus.volumes ?? []).find((v) => v.endsWith(':/etc/prometheus/prometheus.yml:ro'))!;
    const config = parse(readFileSync(join(root, mount.split(':')[0]), 'utf8')) as { scrape_configs: { static_configs: { targets: string[] }[] }[] };
    const targets = config.scrape_configs.flatMap((c) => c.static_configs.flatMap((s) => s.targets));
    expect(targets.sort()).toEqual([`api:${compose.services.api.environment?.PORT}`, `worker:${compose.services.worker.environment?.WORKER_METRICS_PORT}`]);
  });

  it('when Grafana runs in compose, then it is provisioned with the Prometheus source and the dashboard', () => {
    const volumes = compose.services.grafana.volumes ?? [];
    const provisioning = volumes.find((v) => v.includes(':/etc/grafana/provisioning'))!.split(':')[0];
    const dashboards = volumes.find((v) => v.includes(':/var/lib/grafana/dashboards'))!.split(':')[0];
    const source = parse(readFileSync(join(root, provisioning, 'datasources', 'prometheus.yml'), 'utf8')) as { datasources: { url: string }[] };
    expect(source.datasources[0].url).toBe('http://prometheus:9090');
    const dashboard = JSON.parse(readFileSync(join(root, dashboards, 'predex-operations.json'), 'utf8')) as { panels: unknown[] };
    expect(dashboard.panels.length).toBeGreaterThan(0);
  });
});
