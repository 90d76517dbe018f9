import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createPublicClient, http, Hex } from 'viem';
import { collateralAbi, conditionalTokensAbi } from '../../src/chain/generated';
import { createChainPort, devAccounts, fundWallet, type ChainAddresses } from '../../src/chain';
import { connectDatabase } from '../../src/db/connect';
import { connectTemporal } from '../../src/temporal/connect';
import { isPortOpen } from '../../src/embedded/free-port';
import { serviceNodePath } from '../../src/tools/service-node';
import { childrenOf, launch, serviceEnv, servicePorts, startService, stopAllStarted, stopService, SUPERVISOR } from './supervised-start';

afterAll(stopAllStarted);

/** The binary each child of `pid` runs, by its script (`api/main`, `workers/main`). */
function childBinaries(pid: number): Map<string, string> {
  const out = new Map<string, string>();
  for (const child of childrenOf(pid)) {
    const script = /(api|workers)\/main\.js/.exec(child.cmdline)?.[0];
    if (script) out.set(script, child.exe);
  }
  return out;
}

describe('npm start (the whole service on embedded defaults)', () => {
  const run = existsSync(SUPERVISOR) && !process.env.TEMPORAL_ADDRESS && !process.env.MONGODB_URI ? it : it.skip;

  run('when started, stopped and started again, then every part is healthy and the data is still there', async () => {
    const host = '127.0.0.1';
    const ports = await servicePorts();
    const env = serviceEnv(ports, mkdtempSync(join(tmpdir(), 'predex-start-')));
    const api = `http://${host}:${ports.api}`;

    const first = await startService(env);
    expect(first.output()).toContain(`API          ${api}/v1`);
    expect(first.output()).toContain(`Temporal UI  http://${host}:${ports.ui}`);
    // The worker loads the bundle `npm run build` made; it warns when it has to bundle at start.
    expect(first.output()).not.toContain('bundling the workflow code at start');
    expect((await fetch(`${api}/healthz`)).status).toBe(200);
    // The API and the worker run on the pinned Node LTS from the tools cache (SERVICE_NODE=lts).
    expect(Object.fromEntries(childBinaries(first.child.pid!))).toEqual({ 'api/main.js': serviceNodePath(), 'workers/main.js': serviceNodePath() });
    // What it started is recorded for a later start (docs/foundation.md, "Crash model"), with SQLite at synchronous=normal.
    const record = JSON.parse(readFileSync(join(env.DATA_DIR!, 'supervisor.json'), 'utf8')) as { supervisor: { pid: number }; processes: { name: string; pid: number; cmdline: string[] }[] };
    expect(record.supervisor.pid).toBe(first.child.pid);
    expect(record.processes.map((p) => p.name)).toEqual(['temporal', 'ferretdb', 'worker', 'api', 'bots']);
    expect(record.processes.find((p) => p.name === 'ferretdb')!.cmdline).toContain(`--sqlite-url=file:${join(env.DATA_DIR!, 'ferretdb')}/?_pragma=synchronous(normal)`);
    expect(await (await fetch(`${api}/readyz`)).json()).toEqual({ status: 'ready', checks: { mongodb: 'ok', temporal: 'ok', chain: 'ok' } });
    const chainId = await fetch(`http://${host}:${ports.chain}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'eth_chainId', params: [] }),
    });
    expect(await chainId.json()).toMatchObject({ result: '0x38' });
    expect((await fetch(`http://${host}:${ports.ui}/`)).status).toBe(200);

    const firstMarkets = (await (await fetch(`${api}/v1/markets`)).json()) as { data: { condition_id: string; conditional_tokens_address: string; amm?: unknown }[] };
    const books = firstMarkets.data.filter((m) => m.amm === undefined);
    expect(books).toHaveLength(1); // the demo market, seeded on an empty database
    const demo = books[0];
    const demoPool = await openDemoPool(api);

    // Leave state in both stores: a document, and a workflow parked on a queue nobody polls.
    const mongo = await connectDatabase(`mongodb://${host}:${ports.mongo}/`, 'predex');
    await mongo.collection('persistence_probe').insertOne({ probe: 'kept' });
    await mongo.close();
    const temporal = await connectTemporal(`${host}:${ports.temporal}`, 'default');
    await temporal.client.workflow.start('parkedWorkflow', { taskQueue: 'nobody-polls-this', workflowId: 'persistence-probe' });
    // The worker started the chain's watcher (docs/chain-watcher.md).
    expect((await temporal.client.workflow.getHandle('chain-watcher-56').describe()).status.name).toBe('RUNNING');
    await temporal.close();
    // ... and a wallet funded on the embedded chain.
    const deployment = JSON.parse(readFileSync(join(env.DATA_DIR!, 'chain', 'deployment.json'), 'utf8')) as { addresses: ChainAddresses };
    const port = createChainPort({
      rpcUrl: `http://${host}:${ports.chain}`,
      chainId: 56,
      operatorKey: devAccounts()[0].privateKey,
      addresses: deployment.addresses,
      confirmations: 0,
      pollingIntervalMs: 100,
    });
    // Dev accounts 7 to 9 are the demo bots' (src/bots/demo-bots.ts), funded by them at every start.
    const trader = devAccounts()[5].address;
    await fundWallet(port, trader, 123n * 10n ** 18n);

    expect(await stopService(first)).toBe(0);
    for (const port of Object.values(ports)) expect(await isPortOpen(host, port)).toBe(false);

    const second = await startService(env);
    try {
      const again = await connectDatabase(`mongodb://${host}:${ports.mongo}/`, 'predex');
      expect(await again.collection('persistence_probe').findOne({}, { projection: { _id: 0 } })).toEqual({ probe: 'kept' });
      await again.close();
      const temporalAgain = await connectTemporal(`${host}:${ports.temporal}`, 'default');
      const described = await temporalAgain.client.workflow.getHandle('persistence-probe').describe();
      expect(described.status.name).toBe('RUNNING');
      await temporalAgain.client.workflow.getHandle('persistence-probe').terminate('test done');
      await temporalAgain.close();

      // The dev chain starts fresh, yet the demo market is the same and its condition is live again.
      const againMarkets = (await (await fetch(`${api}/v1/markets`)).json()) as { data: { condition_id: string; amm?: unknown }[] };
      expect(againMarkets.data.filter((m) => m.amm === undefined).map((m) => m.condition_id)).toEqual([demo.condition_id]);
      // The demo AMM market is the same one too, its pool still funded.
      expect(await openDemoPool(api)).toEqual({ ...demoPool, prices: expect.any(Array), block_number: expect.any(String) });
      const client = createPublicClient({ transport: http(`http://${host}:${ports.chain}`) });
      const slots = await client.readContract({
        address: demo.conditional_tokens_address as Hex,
        abi: conditionalTokensAbi,
        functionName: 'getOutcomeSlotCount',
        args: [demo.condition_id as Hex],
      });
      expect(slots).toBe(2n);
      const balance = await client.readContract({ address: deployment.addresses.collateral, abi: collateralAbi, functionName: 'balanceOf', args: [trader] });
      expect(balance).toBe(123n * 10n ** 18n);
    } finally {
      expect(await stopService(second)).toBe(0);
    }
  }, 300_000);
  run('when SERVICE_NODE names no Node binary, then it stops with the configuration message and exit code 2, before any server starts', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'predex-start-'));
    const started = launch({ PATH: process.env.PATH, HOME: process.env.HOME, DATA_DIR: dataDir, SERVICE_NODE: '/nonexistent/node' });
    started.ready.catch(() => undefined);
    expect(await started.exited).toBe(2);
    const output = started.output();
    expect(output).toContain('SERVICE_NODE="/nonexistent/node" is not an executable file');
    expect(output).not.toMatch(/Temporal dev server on|FerretDB on|local chain/);
    expect(existsSync(join(dataDir, 'supervisor.json'))).toBe(false); // the data folder's lock is let go
  }, 60_000);
});

/** The demo AMM market's `amm` block once its pool is set up and open (the worker funds it after the start). */
async function openDemoPool(api: string): Promise<Record<string, unknown>> {
  for (const deadline = Date.now() + 60_000; Date.now() < deadline; await new Promise((r) => setTimeout(r, 500))) {
    const pools = (await (await fetch(`${api}/trade/markets?kind=amm`)).json()) as { data: { question: string; amm: { prices: unknown } }[] };
    expect(pools.data.length).toBeLessThanOrEqual(1);
    const demo = pools.data.find((m) => m.question === 'Will the demo pool resolve YES?');
    if (demo?.amm.prices) return demo.amm;
  }
  throw new Error('the demo AMM market did not open');
}
