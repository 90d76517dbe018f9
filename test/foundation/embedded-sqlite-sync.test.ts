/**
 * EMBEDDED_SQLITE_SYNC reaches the embedded servers' SQLite settings: `normal` by default (an
 * fsync at checkpoints), `full` when asked (an fsync at every commit). docs/foundation.md,
 * "Crash model".
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadConfig } from '../../src/config';
import { startFerretDb, type FerretDbServer } from '../../src/embedded/ferretdb-server';
import { freePort } from '../../src/embedded/free-port';
import { startTemporalDevServer, type TemporalDevServer } from '../../src/embedded/temporal-dev-server';

const HOST = '127.0.0.1';
const cmdlineOf = (pid: number) => readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0');

describe('the embedded servers\' SQLite synchronous setting', () => {
  if (process.env.MONGODB_URI || process.env.TEMPORAL_ADDRESS || process.platform !== 'linux') {
    it.skip('runs only with the embedded servers on Linux', () => undefined);
    return;
  }
  const dir = mkdtempSync(join(tmpdir(), 'predex-sqlite-sync-'));
  const stops: (() => Promise<void>)[] = [];
  afterAll(async () => {
    await Promise.all(stops.map((stop) => stop()));
    rmSync(dir, { recursive: true, force: true });
  });

  it('when EMBEDDED_SQLITE_SYNC is unset, then it is normal; when it is neither normal nor full, then the configuration is refused', () => {
    expect(loadConfig({}).EMBEDDED_SQLITE_SYNC).toBe('normal');
    expect(loadConfig({ EMBEDDED_SQLITE_SYNC: 'full' }).EMBEDDED_SQLITE_SYNC).toBe('full');
    expect(() => loadConfig({ EMBEDDED_SQLITE_SYNC: 'off' })).toThrow('EMBEDDED_SQLITE_SYNC="off" must be normal or full');
  });

  it('when full is asked for, then FerretDB and the Temporal server run with synchronous=full on their files', async () => {
    const ferret: FerretDbServer = await startFerretDb({ host: HOST, port: await freePort(HOST), dataDir: join(dir, 'ferretdb'), logDir: dir, tiedToParent: true, sqliteSync: 'full' });
    stops.push(() => ferret.process.stop());
    const temporal: TemporalDevServer = await startTemporalDevServer({
      host: HOST, port: await freePort(HOST), dbFile: join(dir, 'temporal.db'), namespace: 'default', logDir: dir, tiedToParent: true, sqliteSync: 'full',
    });
    stops.push(() => temporal.process.stop());
    expect(cmdlineOf(ferret.process.child.pid!)).toContain(`--sqlite-url=file:${join(dir, 'ferretdb')}/?_pragma=synchronous(full)`);
    expect(cmdlineOf(temporal.process.child.pid!).join(' ')).toContain('--sqlite-pragma journal_mode=wal --sqlite-pragma synchronous=full');
  }, 90_000);
});
