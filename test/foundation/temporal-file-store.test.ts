/**
 * The embedded Temporal server's file store (what `npm start` runs, `--db-filename`): WAL with
 * synchronous=NORMAL, and a started workflow survives the server being killed outright.
 */
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort } from '../../src/embedded/free-port';
import { startTemporalDevServer, type TemporalDevServer } from '../../src/embedded/temporal-dev-server';
import { connectTemporal } from '../../src/temporal/connect';

const HOST = '127.0.0.1';

describe('the embedded Temporal file store', () => {
  if (process.env.TEMPORAL_ADDRESS) {
    it.skip('runs only against the embedded server (TEMPORAL_ADDRESS is set)', () => undefined);
    return;
  }
  const dir = mkdtempSync(join(tmpdir(), 'predex-temporal-store-'));
  const dbFile = join(dir, 'temporal.db');
  let server: TemporalDevServer | undefined;
  const start = async () => {
    server = await startTemporalDevServer({ host: HOST, port: await freePort(HOST), dbFile, namespace: 'default', logDir: dir, tiedToParent: true });
    return server;
  };
  afterAll(async () => {
    await server?.process.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  it('when the server is killed without warning after a workflow started, then on restart the workflow is still there, from a write-ahead-logged file', async () => {
    const first = await start();
    const temporal = await connectTemporal(first.address, 'default');
    try {
      // No worker polls this queue: the workflow stays running, as recorded.
      await temporal.client.workflow.start('noSuchWorkflowType', { taskQueue: 'file-store-test', workflowId: 'survives-a-kill', args: [] });
    } finally {
      await temporal.close();
    }
    expect(existsSync(`${dbFile}-wal`)).toBe(true); // journal_mode=wal took effect
    first.process.child.kill('SIGKILL');
    await first.process.exited;

    const second = await start();
    const again = await connectTemporal(second.address, 'default');
    try {
      const description = await again.client.workflow.getHandle('survives-a-kill').describe();
      expect(description.status.name).toBe('RUNNING');
      expect(description.type).toBe('noSuchWorkflowType');
    } finally {
      await again.close();
    }
  });
});
