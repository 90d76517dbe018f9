/**
 * The embedded Go servers run Go code on half the machine's cores (at least one) unless
 * EMBEDDED_GOMAXPROCS says otherwise: they share the machine with the API, the worker and the
 * chain (src/embedded/go-maxprocs.ts).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { availableParallelism, tmpdir } from 'node:os';
import { join } from 'node:path';
import { startFerretDb } from '../../src/embedded/ferretdb-server';
import { freePort } from '../../src/embedded/free-port';
import { embeddedGoMaxProcs } from '../../src/embedded/go-maxprocs';
import type { ManagedProcess } from '../../src/embedded/managed-process';
import { startTemporalDevServer } from '../../src/embedded/temporal-dev-server';
import { processEnvVar } from '../helpers/process-env';

const HOST = '127.0.0.1';

/** GOMAXPROCS as the running process sees it. */
const goMaxProcsOf = (process: ManagedProcess) => processEnvVar(process.child.pid!, 'GOMAXPROCS');

describe('GOMAXPROCS of the embedded Go servers', () => {
  it('when unset, then half the cores, at least one; when set, that number', () => {
    expect(embeddedGoMaxProcs(undefined, 1)).toBe(1);
    expect(embeddedGoMaxProcs(undefined, 2)).toBe(1);
    expect(embeddedGoMaxProcs(undefined, 3)).toBe(1);
    expect(embeddedGoMaxProcs(undefined, 8)).toBe(4);
    expect(embeddedGoMaxProcs(3, 2)).toBe(3);
  });

  describe('the servers as started', () => {
    if (process.env.MONGODB_URI || process.env.TEMPORAL_ADDRESS || process.platform !== 'linux') {
      it.skip('runs only with the embedded servers on Linux', () => undefined);
      return;
    }
    const dir = mkdtempSync(join(tmpdir(), 'predex-gomaxprocs-'));
    const started: ManagedProcess[] = [];
    const halfTheCores = String(Math.max(1, Math.floor(availableParallelism() / 2)));
    afterAll(async () => {
      await Promise.all(started.map((p) => p.stop()));
      rmSync(dir, { recursive: true, force: true });
    });
    const ferretDb = async (gomaxprocs?: number) => {
      const server = await startFerretDb({ host: HOST, port: await freePort(HOST), dataDir: join(dir, `db${started.length}`), logDir: dir, tiedToParent: true, ...(gomaxprocs ? { gomaxprocs } : {}) });
      started.push(server.process);
      return server.process;
    };
    const temporal = async (gomaxprocs?: number) => {
      const server = await startTemporalDevServer({ host: HOST, port: await freePort(HOST), namespace: 'default', logDir: dir, tiedToParent: true, ...(gomaxprocs ? { gomaxprocs } : {}) });
      started.push(server.process);
      return server.process;
    };

    it('when FerretDB starts without a setting, then it runs on half the cores; with one, on that many', async () => {
      expect(goMaxProcsOf(await ferretDb())).toBe(halfTheCores);
      expect(goMaxProcsOf(await ferretDb(3))).toBe('3');
    });

    it('when the Temporal dev server starts without a setting, then it runs on half the cores; with one, on that many', async () => {
      expect(goMaxProcsOf(await temporal())).toBe(halfTheCores);
      expect(goMaxProcsOf(await temporal(3))).toBe('3');
    }, 120_000);
  });
});
