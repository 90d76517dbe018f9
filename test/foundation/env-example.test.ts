import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { loadConfig } from '../../src/config';
import { ENV_SPEC, type VarSpec } from '../../src/config/env-spec';

const root = join(__dirname, '..', '..');

describe('.env.example', () => {
  const entries = readFileSync(join(root, '.env.example'), 'utf8')
    .split('\n')
    .filter((line) => line && !line.startsWith('#'))
    .map((line) => [line.slice(0, line.indexOf('=')), line.slice(line.indexOf('=') + 1)] as const);
  const values = Object.fromEntries(entries);
  const composeOnly = [...new Set([...readFileSync(join(root, 'docker-compose.yml'), 'utf8').matchAll(/\$\{([A-Z_]+)/g)].map((m) => m[1]))].filter((n) => !(n in ENV_SPEC));

  // After a variable is added: npx tsx scripts/print-env-example.ts > .env.example
  it('when compared with the variables the service reads and compose asks for, then it lists each once', () => {
    expect(entries.map(([name]) => name).sort()).toEqual([...Object.keys(ENV_SPEC), ...composeOnly].sort());
  });

  it('when copied as is, then every value is the default and passes validation', () => {
    for (const [name, spec] of Object.entries(ENV_SPEC) as [string, VarSpec<unknown>][]) {
      expect([name, values[name]]).toEqual([name, spec.default === undefined ? '' : String(spec.default)]);
    }
    expect(() => loadConfig(values)).not.toThrow();
  });

  it('when it holds secrets, then their values are empty', () => {
    for (const [name, spec] of Object.entries(ENV_SPEC) as [string, VarSpec<unknown>][]) if (spec.secret) expect([name, values[name]]).toEqual([name, '']);
    expect(values.GRAFANA_ADMIN_PASSWORD).toBe('');
  });
});
