/**
 * After any crash, `npm start` just works again: a stream of crossing orders runs while a part of
 * the tree is killed with SIGKILL (the supervisor alone, FerretDB, Temporal, the worker with the
 * API, the whole tree); then the real entry point is started again where the tree is gone, with no
 * manual step. Orders whose POST got no answer are sent again, as a client would (a duplicate
 * answer says the first one was taken). Every order then ends FILLED once, with one confirmed fill
 * of its size, and every wallet's balances on the chain are what its fills say.
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createPublicClient, http, type Address, type Hex } from 'viem';
import { collateralAbi, conditionalTokensAbi } from '../../src/chain/generated';
import { marketWorkflowId } from '../../src/matching/market-ids';
import { parseUnitsStrict } from '../../src/money';
import { identityOf } from '../../src/supervisor/process-identity';
import { signBenchOrder, type SignedBenchOrder } from '../../bench/e2e/orders';
import { chainPortFor, createMarkets, devSecrets, E18, fundTraders, type BenchMarket, type Trader } from '../../bench/e2e/setup';
import { watchOutput } from '../helpers/child-output';
import { serviceDiagnostics } from './service-diagnostics';
import { childrenOf, launch, serviceEnv, servicePorts, startService, stopAllStarted, stopService, SUPERVISOR, type ServicePorts, type Started } from './supervised-start';

/** Pairs (a buy and a sell) per crash; the kill comes after the first third of them. */
const PAIRS = 30;
const KILL_AFTER = 10;

afterAll(stopAllStarted);

const linuxWithEmbeddedServers = process.platform === 'linux' && existsSync(SUPERVISOR) && !process.env.TEMPORAL_ADDRESS && !process.env.MONGODB_URI;
const suite = linuxWithEmbeddedServers ? describe : describe.skip;

interface OrderView { order_hash: string; status: string; remaining_size: string }
interface FillView { order_hash: string; trade_id: string; side: 'BUY' | 'SELL'; price: string; size: string; settlement_status: string }

async function gone(pids: number[], ms: number): Promise<boolean> {
  const until = Date.now() + ms;
  while (pids.some((pid) => identityOf(pid)) && Date.now() < until) await new Promise((r) => setTimeout(r, 50));
  return !pids.some((pid) => identityOf(pid));
}

suite('npm start after a crash', () => {
  let ports: ServicePorts;
  let dataDir: string;
  let env: NodeJS.ProcessEnv;
  let service: Started;
  let api: string;
  let market: BenchMarket;
  let traders: Trader[];
  let read: ReturnType<typeof createPublicClient>;
  let tokenDecimals: number;
  let collateralDecimals: number;
  const initial = new Map<string, { collateral: bigint; yes: bigint }>();
  const orders = new Map<string, SignedBenchOrder>();
  const acked = new Set<string>();
  /** The orders the last check found not FILLED once (for the diagnostics of a failure). */
  let notFilledOnce: string[] = [];

  const yesToken = () => BigInt(market.signing.tokens.find((t) => t.outcome === 1)!.token_id);
  const balances = async (wallet: Address) => ({
    collateral: await read.readContract({ address: chainPortFor(dataDir).addresses.collateral, abi: collateralAbi, functionName: 'balanceOf', args: [wallet] }),
    yes: await read.readContract({ address: chainPortFor(dataDir).addresses.conditionalTokens, abi: conditionalTokensAbi, functionName: 'balanceOf', args: [wallet, yesToken()] }),
  });

  /** POSTs one order; true once the service has it (accepted now, or a duplicate of one it took). */
  async function place(order: SignedBenchOrder): Promise<boolean> {
    let res: Response;
    try {
      res = await fetch(`${api}/v1/orders`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${order.trader.jwt}` },
        body: JSON.stringify({ orders: [order.wire] }),
        signal: AbortSignal.timeout(15_000),
      });
    } catch {
      return false; // no answer: the client does not know, and sends it again
    }
    if (res.status !== 200) return false;
    const [result] = ((await res.json()) as { results: { error?: { code: string; message: string } }[] }).results;
    if (result.error && !(result.error.code === 'INVALID_ORDER' && result.error.message.startsWith('Duplicate'))) {
      throw new Error(`order ${order.hash} refused: ${result.error.code} ${result.error.message}`);
    }
    acked.add(order.hash);
    return true;
  }

  /** PAIRS crossing pairs, one pair at a time; `kill` runs after KILL_AFTER of them and the stream goes on meanwhile. */
  async function streamWith(kill: () => void | Promise<void>): Promise<void> {
    const buyers = traders.filter((t) => t.role === 'buyer');
    const sellers = traders.filter((t) => t.role === 'seller');
    for (let i = 0; i < PAIRS; i += 1) {
      if (i === KILL_AFTER) await kill();
      const pair = [signBenchOrder(buyers[i % buyers.length], market), signBenchOrder(sellers[i % sellers.length], market)];
      for (const o of pair) orders.set(o.hash, o);
      await Promise.all(pair.map(place));
    }
  }

  /** Sends every order that got no answer again until the service has it. */
  async function resendUnanswered(): Promise<void> {
    const until = Date.now() + 90_000;
    for (const order of orders.values()) {
      while (!acked.has(order.hash) && !(await place(order))) {
        if (Date.now() > until) throw new Error(`order ${order.hash} was never taken`);
        await new Promise((r) => setTimeout(r, 500));
      }
    }
  }

  async function pages<T>(path: string, jwt: string): Promise<T[]> {
    const rows: T[] = [];
    for (let cursor = ''; ;) {
      const res = await fetch(`${api}${path}&limit=100${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`, { headers: { authorization: `Bearer ${jwt}` } });
      if (res.status !== 200) throw new Error(`GET ${path}: ${res.status}`);
      const page = (await res.json()) as { data: T[]; next_cursor: string; has_more: boolean };
      rows.push(...page.data);
      if (!page.has_more) return rows;
      cursor = page.next_cursor;
    }
  }

  /** The check below; when it fails, its error carries what the service printed and what Temporal says of the market. */
  async function everyOrderFilledOnceAndChainAgrees(): Promise<void> {
    try {
      await checkEveryOrderFilledOnce();
    } catch (error) {
      const services = { temporal: `127.0.0.1:${ports.temporal}`, mongoUri: `mongodb://127.0.0.1:${ports.mongo}/` };
      (error as Error).message += `\n\n${await serviceDiagnostics(dataDir, services, [marketWorkflowId(market)], notFilledOnce)}`;
      throw error;
    }
  }

  /** Waits until every order is FILLED, then checks each order, its fills and every wallet's balances on the chain. */
  async function checkEveryOrderFilledOnce(): Promise<void> {
    await resendUnanswered();
    let views: OrderView[] = [];
    const until = Date.now() + 150_000;
    for (;;) {
      views = (await Promise.all(traders.map((t) => pages<OrderView>(`/v1/orders?condition_id=${market.condition_id}`, t.jwt).catch(() => [])))).flat();
      if (views.length >= orders.size && views.every((o) => o.status === 'FILLED')) break;
      if (Date.now() > until) break;
      await new Promise((r) => setTimeout(r, 1_000));
    }
    const byHash = new Map<string, OrderView[]>();
    for (const view of views) byHash.set(view.order_hash, [...(byHash.get(view.order_hash) ?? []), view]);
    const notOnce = [...orders.keys()].filter((h) => byHash.get(h)?.length !== 1 || byHash.get(h)![0].status !== 'FILLED' || byHash.get(h)![0].remaining_size !== '0');
    notFilledOnce = notOnce;
    expect({ orders: orders.size, notFilledOnce: notOnce.map((h) => byHash.get(h) ?? 'missing') }).toEqual({ orders: orders.size, notFilledOnce: [] });
    expect(byHash.size).toBe(orders.size); // no order the stream did not send

    const size = parseUnitsStrict('1', tokenDecimals);
    for (const trader of traders) {
      const fills = await pages<FillView>(`/v1/fills?condition_id=${market.condition_id}`, trader.jwt);
      const perOrder = new Map<string, bigint>();
      let collateral = initial.get(trader.address)!.collateral;
      let yes = initial.get(trader.address)!.yes;
      for (const fill of fills) {
        expect(fill.settlement_status).toBe('CONFIRMED');
        const units = parseUnitsStrict(fill.size, tokenDecimals);
        perOrder.set(fill.order_hash, (perOrder.get(fill.order_hash) ?? 0n) + units);
        const paid = (parseUnitsStrict(fill.price, collateralDecimals) * units) / 10n ** BigInt(tokenDecimals);
        collateral += fill.side === 'BUY' ? -paid : paid;
        yes += fill.side === 'BUY' ? units : -units;
      }
      const own = [...orders.values()].filter((o) => o.trader.address === trader.address).map((o) => o.hash);
      expect([...perOrder.entries()].filter(([hash, units]) => units !== size || !own.includes(hash))).toEqual([]);
      expect(perOrder.size).toBe(own.length);
      expect(await balances(trader.address)).toEqual({ collateral, yes });
    }
  }

  const tree = () => childrenOf(service.child.pid!);
  const processOf = (pattern: RegExp) => {
    const found = tree().find((p) => pattern.test(p.cmdline));
    if (!found) throw new Error(`no ${pattern} under the supervisor: ${JSON.stringify(tree())}`);
    return found.pid;
  };
  const FERRETDB = /ferretdb --handler/;
  const TEMPORAL = /temporal server start-dev/;
  const API = /api\/main\.js/;
  const WORKER = /workers\/main\.js/;

  beforeAll(async () => {
    ports = await servicePorts();
    dataDir = mkdtempSync(join(tmpdir(), 'predex-crash-'));
    // One loopback address sends every trader's orders: the per-address limit is for many clients behind one.
    // CRASH_TEST_LOG_LEVEL: the service's log level (warn by default), for a closer look at a failure.
    env = serviceEnv(ports, dataDir, { RATE_LIMIT_PER_IP: '0', LOG_LEVEL: process.env.CRASH_TEST_LOG_LEVEL ?? 'warn' });
    service = await startService(env);
    api = `http://127.0.0.1:${ports.api}`;
    [market] = await createMarkets(api, devSecrets(dataDir).ADMIN_TOKEN, 1, 'crash');
    const chain = chainPortFor(dataDir);
    traders = await fundTraders(chain, dataDir, [market], 4, 1_000n * E18, 1_000n * E18);
    read = createPublicClient({ transport: http(`http://127.0.0.1:${ports.chain}`) });
    tokenDecimals = market.signing.decimals;
    collateralDecimals = await read.readContract({ address: chain.addresses.collateral, abi: collateralAbi, functionName: 'decimals' });
    for (const t of traders) initial.set(t.address, await balances(t.address));
  }, 240_000);

  it('when the supervisor alone is killed mid-stream, then its API and worker leave within 2 s, and the next npm start stops its servers, says so, and loses no order', async () => {
    const supervisorPid = service.child.pid!;
    const nodeChildren = [processOf(API), processOf(WORKER)];
    const servers = { ferretdb: processOf(FERRETDB), temporal: processOf(TEMPORAL) };
    let nodeChildrenLeft = false;
    await streamWith(async () => {
      service.child.kill('SIGKILL');
      await service.exited;
      nodeChildrenLeft = await gone(nodeChildren, 2_000);
    });
    expect(nodeChildrenLeft).toBe(true);
    // The Go servers cannot watch for us: they run on as orphans until the next start.
    expect([identityOf(servers.ferretdb), identityOf(servers.temporal)]).toEqual([expect.anything(), expect.anything()]);

    service = await startService(env);
    expect([identityOf(servers.ferretdb), identityOf(servers.temporal)]).toEqual([undefined, undefined]);
    const said = service.output().split('\n').filter((line) => line.includes('left running'));
    expect(said).toHaveLength(1);
    expect(said[0]).toContain(`[predex] stopped what the previous start (pid ${supervisorPid}) left running in ${dataDir}: `);
    expect(said[0]).toContain(`ferretdb (pid ${servers.ferretdb})`);
    expect(said[0]).toContain(`temporal (pid ${servers.temporal})`);
    await everyOrderFilledOnceAndChainAgrees();
  }, 420_000);

  for (const [name, pattern] of [['FerretDB', FERRETDB], ['the Temporal server', TEMPORAL]] as const) {
    it(`when ${name} alone is killed mid-stream, then the tree stops, and the next npm start loses no order`, async () => {
      await streamWith(async () => {
        process.kill(processOf(pattern), 'SIGKILL');
        expect(await service.exited).toBe(1);
      });
      service = await startService(env);
      await everyOrderFilledOnceAndChainAgrees();
    }, 420_000);
  }

  it('when the worker and the API are killed mid-stream, then the supervisor restarts both and no order is lost', async () => {
    const pids = [processOf(WORKER), processOf(API)];
    await streamWith(() => {
      for (const pid of pids) process.kill(pid, 'SIGKILL');
    });
    await everyOrderFilledOnceAndChainAgrees();
    expect(service.output()).toContain('worker exited (SIGKILL); restarting');
    expect(service.output()).toContain('api exited (SIGKILL); restarting');
    expect([processOf(WORKER), processOf(API)].filter((pid) => pids.includes(pid))).toEqual([]);
  }, 420_000);

  it('when the whole tree is killed at once mid-stream, then the next npm start loses no order', async () => {
    await streamWith(async () => {
      for (const p of tree()) process.kill(p.pid, 'SIGKILL');
      service.child.kill('SIGKILL');
      await service.exited;
    });
    service = await startService(env);
    expect(service.output()).not.toContain('left running');
    await everyOrderFilledOnceAndChainAgrees();
    expect(await stopService(service)).toBe(0);
  }, 420_000);

  it('when a foreign process holds the API port, then npm start stops before any server starts and names its pid, its name and PORT', async () => {
    const holder = spawn(process.execPath, ['-e', `require('node:net').createServer().listen(${ports.api}, '127.0.0.1', () => console.log('listening'))`], { stdio: ['ignore', 'pipe', 'pipe'] });
    try {
      await watchOutput(holder, 'port holder').printed('listening');
      const blocked = launch(env);
      blocked.ready.catch(() => undefined);
      expect(await blocked.exited).toBe(1);
      expect(blocked.output()).toContain(
        `[predex] Port ${ports.api} (API) on 127.0.0.1 is in use by pid ${holder.pid} (node), which this start did not make. Stop it, or set PORT to a free port.`,
      );
      expect(blocked.output()).not.toMatch(/Temporal dev server on|FerretDB on|local chain/);
    } finally {
      holder.kill('SIGKILL');
    }
  }, 120_000);
});
