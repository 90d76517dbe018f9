import { ChildProcess, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createPublicClient, http, Hex } from 'viem';
import { readFileSync } from 'node:fs';
import { collateralAbi, conditionalTokensAbi } from '../../src/chain/generated';
import { createChainPort, devAccounts, fundWallet, type ChainAddresses } from '../../src/chain';
import { connectDatabase } from '../../src/db/connect';
import { connectTemporal } from '../../src/temporal/connect';
import { freePort, isPortOpen } from '../../src/embedded/free-port';
import { serviceNodePath } from '../../src/tools/service-node';

const root = join(__dirname, '..', '..');
const supervisor = join(root, 'dist', 'src', 'supervisor', 'main.js');

interface Started {
  child: ChildProcess;
  output: () => string;
}

const running = new Set<ChildProcess>();
afterAll(() => {
  // A failed assertion must not leave a service tree behind: SIGINT stops it in order.
  for (const child of running) if (child.exitCode === null) child.kill('SIGINT');
});

/** Runs the built `npm start` entry point and resolves once it prints that it is ready. */
function startService(env: NodeJS.ProcessEnv): Promise<Started> {
  const child = spawn(process.execPath, [supervisor], { env, stdio: ['ignore', 'pipe', 'pipe'] });
  running.add(child);
  let output = '';
  child.stdout!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`not ready in time:\n${output.slice(-3000)}`)), 120_000);
    const check = setInterval(() => {
      if (output.includes('[predex] ready')) {
        clearInterval(check);
        clearTimeout(timer);
        resolve({ child, output: () => output });
      }
    }, 200);
    child.once('exit', (code) => {
      clearInterval(check);
      clearTimeout(timer);
      reject(new Error(`exited with ${code} before ready:\n${output.slice(-3000)}`));
    });
  });
}

/** The binary each child of `pid` runs, by its script (`api/main`, `workers/main`). */
function childBinaries(pid: number): Map<string, string> {
  const out = new Map<string, string>();
  for (const entry of readdirSync('/proc').filter((e) => /^\d+$/.test(e))) {
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      if (Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]) !== pid) continue;
      const script = /(api|workers)\/main\.js/.exec(readFileSync(`/proc/${entry}/cmdline`, 'utf8'))?.[0];
      if (script) out.set(script, readlinkSync(`/proc/${entry}/exe`));
    } catch {
      // ended meanwhile
    }
  }
  return out;
}

function stopService(started: Started): Promise<number | null> {
  return new Promise((resolve) => {
    started.child.once('exit', (code) => resolve(code));
    started.child.kill('SIGINT');
  });
}

describe('npm start (the whole service on embedded defaults)', () => {
  const run = existsSync(supervisor) && !process.env.TEMPORAL_ADDRESS && !process.env.MONGODB_URI ? it : it.skip;

  run('when started, stopped and started again, then every part is healthy and the data is still there', async () => {
    const host = '127.0.0.1';
    const ports = { api: await freePort(), temporal: await freePort(), ui: await freePort(), mongo: await freePort(), chain: await freePort() };
    const env: NodeJS.ProcessEnv = {
      PATH: process.env.PATH,
      HOME: process.env.HOME,
      TOOLS_DIR: process.env.TOOLS_DIR,
      DATA_DIR: mkdtempSync(join(tmpdir(), 'predex-start-')),
      HOST: host,
      PORT: String(ports.api),
      TEMPORAL_PORT: String(ports.temporal),
      TEMPORAL_UI_PORT: String(ports.ui),
      MONGODB_PORT: String(ports.mongo),
      CHAIN_PORT: String(ports.chain),
      LOG_LEVEL: 'warn',
    };
    const api = `http://${host}:${ports.api}`;

    const first = await startService(env);
    expect(first.output()).toContain(`API          ${api}/v1`);
    expect(first.output()).toContain(`Temporal UI  http://${host}:${ports.ui}`);
    // The worker loads the bundle `npm run build` made; it warns when it has to bundle at start.
    expect(first.output()).not.toContain('bundling the workflow code at start');
    expect((await fetch(`${api}/healthz`)).status).toBe(200);
    // The API and the worker run on the pinned Node LTS from the tools cache (SERVICE_NODE=lts).
    expect(Object.fromEntries(childBinaries(first.child.pid!))).toEqual({ 'api/main.js': serviceNodePath(), 'workers/main.js': serviceNodePath() });
    expect(await (await fetch(`${api}/readyz`)).json()).toEqual({ status: 'ready', checks: { mongodb: 'ok', temporal: 'ok', chain: 'ok' } });
    const chainId = await fetch(`http://${host}:${ports.chain}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'eth_chainId', params: [] }),
    });
    expect(await chainId.json()).toMatchObject({ result: '0x38' });
    expect((await fetch(`http://${host}:${ports.ui}/`)).status).toBe(200);

    const firstMarkets = (await (await fetch(`${api}/v1/markets`)).json()) as { data: { condition_id: string; conditional_tokens_address: string }[] };
    expect(firstMarkets.data).toHaveLength(1); // the demo market, seeded on an empty database
    const demo = firstMarkets.data[0];

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
    const trader = devAccounts()[7].address;
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
      const againMarkets = (await (await fetch(`${api}/v1/markets`)).json()) as { data: { condition_id: string }[] };
      expect(againMarkets.data.map((m) => m.condition_id)).toEqual([demo.condition_id]);
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
    const child = spawn(process.execPath, [supervisor], {
      env: { PATH: process.env.PATH, HOME: process.env.HOME, DATA_DIR: dataDir, SERVICE_NODE: '/nonexistent/node' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    running.add(child);
    let output = '';
    child.stdout!.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()));
    const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
    expect(code).toBe(2);
    expect(output).toContain('SERVICE_NODE="/nonexistent/node" is not an executable file');
    expect(output).not.toMatch(/Temporal dev server on|FerretDB on|local chain/);
    expect(existsSync(join(dataDir, 'supervisor.pid'))).toBe(false); // the data folder's lock is let go
  }, 60_000);
});
