import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { observeGateway } from '../../src/metrics/gateway-metrics';
import { registry } from '../../src/metrics/metrics';

const root = join(__dirname, '..', '..');

describe('the metrics operators read', () => {
  observeGateway({ stats: () => ({ connections: 0, subscriptions: 0, routes: 0, maxBufferedPackets: 0, eventsSeen: 0, feeds: 0, seedReads: 0 }) });
  const names = () => registry.getMetricsAsJSON().then((all) => all.map((m) => m.name));
  const isProcessMetric = (name: string) => /^predex_(process|nodejs)_/.test(name);

  it('when a metric is defined, then docs/operations.md lists it by name', async () => {
    const doc = readFileSync(join(root, 'docs', 'operations.md'), 'utf8');
    const missing = (await names()).filter((name) => !isProcessMetric(name) && !doc.includes(`| \`${name}\` |`));
    expect(missing).toEqual([]);
  });

  it('when the dashboard queries a predex metric, then the service defines it', async () => {
    const dashboard = readFileSync(join(root, 'deploy', 'grafana', 'dashboards', 'predex-operations.json'), 'utf8');
    const known = new Set(await names());
    const queried = [...new Set([...dashboard.matchAll(/\bpredex_[a-z0-9_]+/g)].map((m) => m[0].replace(/_(bucket|sum|count)$/, '')))];
    expect(queried.length).toBeGreaterThan(5);
    expect(queried.filter((name) => !known.has(name))).toEqual([]);
  });
});
