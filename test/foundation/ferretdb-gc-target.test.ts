/**
 * The embedded FerretDB runs with its own Go garbage-collection target (GOGC): Go's default of 100
 * cost it ~20% more CPU under the e2e bench (src/embedded/ferretdb-server.ts).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ENV_SPEC } from '../../src/config/env-spec';
import { startFerretDb, type FerretDbServer } from '../../src/embedded/ferretdb-server';
import { freePort } from '../../src/embedded/free-port';
import { processEnvVar } from '../helpers/process-env';

const HOST = '127.0.0.1';

/** GOGC as the running process sees it. */
const gogcOf = (server: FerretDbServer) => processEnvVar(server.process.child.pid!, 'GOGC');

describe('the embedded FerretDB\'s GC target', () => {
  if (process.env.MONGODB_URI || process.platform !== 'linux') {
    it.skip('runs only with the embedded FerretDB on Linux', () => undefined);
    return;
  }
  const dir = mkdtempSync(join(tmpdir(), 'predex-ferretdb-gogc-'));
  const servers: FerretDbServer[] = [];
  const start = async (gogc?: number) => {
    const server = await startFerretDb({ host: HOST, port: await freePort(HOST), dataDir: join(dir, `db${servers.length}`), logDir: dir, tiedToParent: true, ...(gogc ? { gogc } : {}) });
    servers.push(server);
    return server;
  };
  afterAll(async () => {
    await Promise.all(servers.map((s) => s.process.stop()));
    rmSync(dir, { recursive: true, force: true });
  });

  it('when started without a setting, then FerretDB runs with FERRETDB_GOGC\'s default, not Go\'s 100', async () => {
    expect(ENV_SPEC.FERRETDB_GOGC.default).toBe(400);
    expect(gogcOf(await start())).toBe('400');
  });

  it('when started with a GC target, then FerretDB runs with that one', async () => {
    expect(gogcOf(await start(150))).toBe('150');
  });
});
