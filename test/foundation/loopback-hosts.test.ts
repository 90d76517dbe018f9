/**
 * Several machines, simulated on loopback: two API processes and two worker processes, each a
 * separate OS process bound to its own loopback address, sharing one Temporal, one store and one
 * chain (the jest services and a chain this file starts), as docker compose runs them on separate
 * hosts (docs/deployment.md). A trade placed through API 1 is matched, settled and pushed to a
 * socket on API 2; then a stream of crossing orders runs while one worker and one API are
 * SIGKILLed, and every order still ends FILLED once with one confirmed fill of its size.
 */
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client, Connection } from '@temporalio/client';
import { io as connectSocket, type Socket } from 'socket.io-client';
import { createChainPort } from '../../src/chain/create-chain-port';
import { startLocalChain, type LocalChain } from '../../src/chain';
import { freePort } from '../../src/embedded/free-port';
import { devSecretsFile } from '../../src/supervisor/dev-secrets';
import { parseUnitsStrict } from '../../src/money';
import { signBenchOrder, type SignedBenchOrder } from '../../bench/e2e/orders';
import { createMarkets, E18, fundTraders, type BenchMarket, type Trader } from '../../bench/e2e/setup';
import { watchOutput } from '../helpers/child-output';
import { eventually } from '../helpers/eventually';
import { testMongoUri } from '../helpers/test-database';
import { testTemporalAddress, uniqueTaskQueue } from '../helpers/test-temporal';

const root = join(__dirname, '..', '..');
const API_MAIN = join(root, 'dist', 'src', 'api', 'main.js');
const WORKER_MAIN = join(root, 'dist', 'workers', 'main.js');
const WORKER_PRELOAD = join(root, 'dist', 'src', 'temporal', 'no-workflow-stack-traces.js');

/** Crossing pairs of the stream; the kill comes after the first KILL_AFTER of them. */
const PAIRS = 24;
const KILL_AFTER = 8;

const built = process.platform === 'linux' && existsSync(API_MAIN) && existsSync(WORKER_MAIN);
const suite = built ? describe : describe.skip;

interface Part {
  name: string;
  host: string;
  port: number;
  child: ChildProcessWithoutNullStreams;
  output: ReturnType<typeof watchOutput>;
  url: string;
}

interface OrderView { order_hash: string; status: string; remaining_size: string }
interface FillView { order_hash: string; trade_id: string; size: string; settlement_status: string }

/** A probe fails while the part it asks is still starting: that counts as not yet. */
const until = <T>(what: string, probe: () => Promise<T | undefined | null | false>, timeoutMs: number): Promise<T> =>
  eventually(what, () => probe().catch(() => undefined), { timeoutMs, everyMs: 250 });

suite('two APIs and two workers on separate loopback addresses', () => {
  const secrets = { AUTH_JWT_SECRET: 'hosts-jwt-secret-0123456789abcdef-01234', ADMIN_TOKEN: 'hosts-admin-token-0123456789abcdef-0123' };
  const parts: Part[] = [];
  let chain: LocalChain;
  let env: NodeJS.ProcessEnv;
  let market: BenchMarket;
  let traders: Trader[];
  let apis: Part[];
  let workers: Part[];
  let socket: Socket | undefined;
  const orders = new Map<string, SignedBenchOrder>();
  const acked = new Set<string>();

  /** Starts `script` as its own process listening on `host` (API: PORT; worker: its metrics port), ready once /readyz answers 200. */
  async function startPart(name: string, host: string, script: string, nodeArgs: string[] = []): Promise<Part> {
    const port = await freePort(host);
    const own: NodeJS.ProcessEnv = { ...env, HOST: host, ...(script === API_MAIN ? { PORT: String(port) } : { WORKER_METRICS_PORT: String(port) }) };
    const child = spawn(process.execPath, [...nodeArgs, script], { cwd: root, env: own, stdio: ['pipe', 'pipe', 'pipe'] });
    const part = { name, host, port, child, output: watchOutput(child, name), url: `http://${host}:${port}` };
    parts.push(part);
    await until(`${name} ready`, async () => {
      if (child.exitCode !== null) throw new Error(`${name} exited ${child.exitCode}:\n${part.output.text()}`);
      return (await fetch(`${part.url}/readyz`, { signal: AbortSignal.timeout(2_000) })).status === 200;
    }, 90_000).catch((error: unknown) => {
      throw new Error(`${(error as Error).message}\n${part.output.text().slice(-3000)}`);
    });
    return part;
  }

  const alive = (p: Part) => p.child.exitCode === null && p.child.signalCode === null;

  beforeAll(async () => {
    chain = await startLocalChain({ host: '127.0.0.6', port: await freePort('127.0.0.6'), chainId: 56, blockIntervalMs: 200 });
    const dataDir = mkdtempSync(join(tmpdir(), 'predex-hosts-'));
    mkdirSync(dataDir, { recursive: true });
    writeFileSync(devSecretsFile(dataDir), JSON.stringify(secrets));
    env = {
      PATH: process.env.PATH, HOME: process.env.HOME, LOG_LEVEL: 'warn',
      TEMPORAL_ADDRESS: testTemporalAddress(), TEMPORAL_TASK_QUEUE: uniqueTaskQueue('hosts'),
      MONGODB_URI: testMongoUri(), MONGODB_DB: `hosts_${Date.now().toString(36)}`, MONGODB_MAX_POOL_SIZE: '8',
      CHAIN_RPC_URL: chain.rpcUrl, OPERATOR_PRIVATE_KEY: chain.operatorKey, EXCHANGE_ADDRESS: chain.addresses.exchange,
      COLLATERAL_ADDRESS: chain.addresses.collateral, CONDITIONAL_TOKENS_ADDRESS: chain.addresses.conditionalTokens,
      // The dev chain's operator key is Hardhat's public one, allowed on the dev chain only.
      LOCAL_DEV_CHAIN: 'true', CHAIN_CONFIRMATIONS: '1',
      ...secrets, API_KEY_PEPPER: 'hosts-pepper-0123456789abcdef-0123456789',
      // One loopback address sends every trader's orders: the per-address limit is for many clients behind one.
      RATE_LIMIT_PER_IP: '0',
    };
    // The first API seeds the database (the demo market) before the second starts; the workers run
    // beside it, since the demo market's condition is prepared by a worker (the API holds no key).
    const [api1, worker1, worker2] = await Promise.all([
      startPart('api 1', '127.0.0.2', API_MAIN),
      startPart('worker 1', '127.0.0.4', WORKER_MAIN, ['--require', WORKER_PRELOAD]),
      startPart('worker 2', '127.0.0.5', WORKER_MAIN, ['--require', WORKER_PRELOAD]),
    ]);
    const api2 = await startPart('api 2', '127.0.0.3', API_MAIN);
    apis = [api1, api2];
    workers = [worker1, worker2];
    [market] = await createMarkets(api1.url, secrets.ADMIN_TOKEN, 1, 'hosts');
    const port = createChainPort({ rpcUrl: chain.rpcUrl, chainId: 56, operatorKey: chain.operatorKey, addresses: chain.addresses, confirmations: 0, pollingIntervalMs: 50 });
    traders = await fundTraders(port, dataDir, [market], 4, 1_000n * E18, 1_000n * E18);
  }, 240_000);

  afterAll(async () => {
    socket?.close();
    for (const p of parts) if (alive(p)) p.child.kill('SIGTERM');
    await Promise.all(parts.map((p) => (p.child.exitCode !== null || p.child.signalCode !== null ? undefined : new Promise((r) => {
      const timer = setTimeout(() => { p.child.kill('SIGKILL'); r(undefined); }, 10_000);
      p.child.once('exit', () => { clearTimeout(timer); r(undefined); });
    }))));
    await chain?.stop();
  }, 60_000);

  /** POSTs one order to the first live API of `prefer`: true once the service has it (accepted, or a duplicate of one it took). */
  async function place(order: SignedBenchOrder, prefer: Part[]): Promise<boolean> {
    for (const api of prefer.filter(alive)) {
      let res: Response;
      try {
        res = await fetch(`${api.url}/v1/orders`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', authorization: `Bearer ${order.trader.jwt}` },
          body: JSON.stringify({ orders: [order.wire] }),
          signal: AbortSignal.timeout(15_000),
        });
      } catch {
        continue; // no answer: a client sends it again, here to the other API
      }
      if (res.status !== 200) continue;
      const [result] = ((await res.json()) as { results: { error?: { code: string; message: string } }[] }).results;
      if (result.error && !(result.error.code === 'INVALID_ORDER' && result.error.message.startsWith('Duplicate'))) {
        throw new Error(`order ${order.hash} refused: ${result.error.code} ${result.error.message}`);
      }
      acked.add(order.hash);
      return true;
    }
    return false;
  }

  function pair(i: number): SignedBenchOrder[] {
    const buyers = traders.filter((t) => t.role === 'buyer');
    const sellers = traders.filter((t) => t.role === 'seller');
    const made = [signBenchOrder(buyers[i % buyers.length], market), signBenchOrder(sellers[i % sellers.length], market)];
    for (const o of made) orders.set(o.hash, o);
    return made;
  }

  async function pages<T>(api: Part, path: string, jwt: string): Promise<T[]> {
    const rows: T[] = [];
    for (let cursor = ''; ;) {
      const res = await fetch(`${api.url}${path}&limit=100${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`, { headers: { authorization: `Bearer ${jwt}` } });
      if (res.status !== 200) throw new Error(`GET ${path}: ${res.status}`);
      const page = (await res.json()) as { data: T[]; next_cursor: string; has_more: boolean };
      rows.push(...page.data);
      if (!page.has_more) return rows;
      cursor = page.next_cursor;
    }
  }

  /** What the task queue's running workflows wait for: their pending activities and last failures. */
  async function runningWork(): Promise<string> {
    const connection = await Connection.connect({ address: testTemporalAddress() });
    try {
      const client = new Client({ connection });
      const lines: string[] = [];
      for await (const w of client.workflow.list({ query: `TaskQueue = "${env.TEMPORAL_TASK_QUEUE}" AND ExecutionStatus = "Running"` })) {
        const d = await client.workflow.getHandle(w.workflowId, w.runId).describe();
        const pending = d.raw.pendingActivities?.map((a) => `${a.activityType?.name} attempt ${a.attempt} ${a.lastFailure?.message ?? ''}`) ?? [];
        lines.push(`${w.workflowId}: ${pending.join('; ') || 'no pending activity'}`);
      }
      return lines.join('\n');
    } finally {
      await connection.close();
    }
  }

  const ordersOf = (api: Part) => Promise.all(traders.map((t) => pages<OrderView>(api, `/v1/orders?condition_id=${market.condition_id}`, t.jwt))).then((all) => all.flat());
  const fillsOf = (api: Part) => Promise.all(traders.map((t) => pages<FillView>(api, `/v1/fills?condition_id=${market.condition_id}`, t.jwt))).then((all) => all.flat());

  it('when a trade is placed through API 1, then it is matched, settled and pushed to a socket on API 2', async () => {
    const [api1, api2] = apis;
    socket = connectSocket(api2.url, { path: '/v1/ws', transports: ['websocket'], reconnection: false, forceNew: true });
    const trades: { trade_id: string; condition_id: string }[] = [];
    socket.on('trades', (t: { trade_id: string; condition_id: string }) => trades.push(t));
    const ack = await new Promise<{ ok?: boolean; error?: unknown }>((resolve) => socket!.emit('subscribe', { channel: 'trades', condition_id: market.condition_id, chain_id: 56 }, resolve));
    expect(ack).not.toHaveProperty('error');

    const [buy, sell] = pair(0);
    expect(await place(buy, [api1])).toBe(true);
    expect(await place(sell, [api1])).toBe(true);
    const fills = await until('the pair settled', async () => {
      const all = (await fillsOf(api2)).filter((f) => f.order_hash === buy.hash || f.order_hash === sell.hash);
      return all.length === 2 && all.every((f) => f.settlement_status === 'CONFIRMED') ? all : null;
    }, 90_000);
    const pushed = await until('the trade pushed to API 2', async () => trades.find((t) => t.trade_id === fills[0].trade_id), 30_000);
    expect(pushed).toMatchObject({ condition_id: market.condition_id });
    expect(api2.host).not.toBe(api1.host);
  }, 150_000);

  it('when one worker and one API are SIGKILLed mid-stream, then every order ends FILLED once with one confirmed fill of its size', async () => {
    const [api1, api2] = apis;
    for (let i = 1; i <= PAIRS; i += 1) {
      if (i === KILL_AFTER + 1) {
        workers[0].child.kill('SIGKILL');
        api1.child.kill('SIGKILL');
      }
      // Pairs alternate between the APIs, as behind a load balancer; a dead one's go to the other.
      const prefer = i % 2 === 0 ? [api1, api2] : [api2, api1];
      await Promise.all(pair(i).map((o) => place(o, prefer)));
    }
    expect([alive(workers[0]), alive(api1)]).toEqual([false, false]);
    // Orders whose POST got no answer are sent again until the service has them.
    for (const order of orders.values()) await until(`order ${order.hash} taken`, async () => acked.has(order.hash) || place(order, [api2]), 60_000);

    const views = await until('every order FILLED', async () => {
      const seen = await ordersOf(api2);
      return seen.length >= orders.size && seen.every((o) => o.status === 'FILLED') ? seen : null;
    }, 150_000).catch(async (error: unknown) => {
      const seen = await ordersOf(api2);
      const stuck = seen.filter((o) => o.status !== 'FILLED').map((o) => `${o.order_hash} ${o.status}`);
      throw new Error(`${(error as Error).message}: ${stuck.length} not FILLED\n${stuck.join('\n')}\n${await runningWork()}\nworker 2:\n${workers[1].output.text().slice(-4000)}`);
    });
    const byHash = new Map<string, OrderView[]>();
    for (const v of views) byHash.set(v.order_hash, [...(byHash.get(v.order_hash) ?? []), v]);
    expect([...orders.keys()].filter((h) => byHash.get(h)?.length !== 1 || byHash.get(h)![0].remaining_size !== '0')).toEqual([]);
    expect(byHash.size).toBe(orders.size);

    const fills = await until('every fill CONFIRMED', async () => {
      const all = await fillsOf(api2);
      return all.every((f) => f.settlement_status === 'CONFIRMED') ? all : null;
    }, 60_000);
    const size = parseUnitsStrict('1', market.signing.decimals);
    const perOrder = new Map<string, bigint>();
    for (const f of fills) perOrder.set(f.order_hash, (perOrder.get(f.order_hash) ?? 0n) + parseUnitsStrict(f.size, market.signing.decimals));
    expect([...perOrder.entries()].filter(([, units]) => units !== size)).toEqual([]);
    expect(perOrder.size).toBe(orders.size);
    // The survivors carried it: the other worker and API are still up.
    expect([alive(workers[1]), alive(api2)]).toEqual([true, true]);
  }, 300_000);
});
