import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ConfigError, ENV_SPEC, loadConfig } from '../../src/config';

describe('configuration', () => {
  it('when nothing is set, then every default applies', () => {
    const config = loadConfig({});
    expect(config.PORT).toBe(8080);
    expect(config.CHAIN_ID).toBe(56);
    expect(config.TEMPORAL_ADDRESS).toBeUndefined();
    expect(config.MONGODB_URI).toBeUndefined();
  });

  it('when values are valid, then they are parsed to their types', () => {
    const config = loadConfig({ PORT: '9001', TEMPORAL_ADDRESS: 'temporal:7233', MONGODB_URI: 'mongodb://db:27017/?replicaSet=rs0' });
    expect(config.PORT).toBe(9001);
    expect(config.TEMPORAL_ADDRESS).toBe('temporal:7233');
  });

  it('when several variables are bad, then one error names each of them', () => {
    let caught: unknown;
    try {
      loadConfig({ PORT: 'eighty', CHAIN_ID: '-1', TEMPORAL_ADDRESS: 'no-port', LOG_LEVEL: 'loud' });
    } catch (error) {
      caught = error;
    }
    expect(caught).toBeInstanceOf(ConfigError);
    const problems = (caught as ConfigError).problems.join('\n');
    for (const name of ['PORT', 'CHAIN_ID', 'TEMPORAL_ADDRESS', 'LOG_LEVEL']) expect(problems).toContain(name);
  });

  it('when a secret is bad, then its value never appears in the message', () => {
    const value = 'short-secret-value';
    expect(() => loadConfig({ ADMIN_TOKEN: value })).toThrow(ConfigError);
    try {
      loadConfig({ ADMIN_TOKEN: value, OPERATOR_PRIVATE_KEY: '0xdeadbeef' });
    } catch (error) {
      expect((error as Error).message).toContain('ADMIN_TOKEN');
      expect((error as Error).message).toContain('OPERATOR_PRIVATE_KEY');
      expect((error as Error).message).not.toContain(value);
      expect((error as Error).message).not.toContain('deadbeef');
    }
  });

  it('when the README is read, then its configuration table lists every variable', () => {
    const readme = readFileSync(join(__dirname, '..', '..', 'README.md'), 'utf8');
    const missing = Object.keys(ENV_SPEC).filter((name) => !readme.includes(`| \`${name}\``));
    expect(missing).toEqual([]);
  });
});
