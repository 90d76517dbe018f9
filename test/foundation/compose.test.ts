import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'yaml';
import { TEMPORAL_DYNAMIC_CONFIG } from '../../src/embedded/temporal-dev-server';

const root = join(__dirname, '..', '..');

describe('docker-compose deployment', () => {
  const compose = parse(readFileSync(join(root, 'docker-compose.yml'), 'utf8')) as {
    services: Record<string, { image?: string; build?: unknown; command?: unknown; environment?: Record<string, string> }>;
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
});
