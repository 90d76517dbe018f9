/**
 * The trade API (`npm run bench:trade`): the embedded stack as `npm start` runs it, one AMM market
 * (pool funded with 1,000) and one CLOB market with asks on five levels.
 *
 * - Public `POST /trade/quote` requests per second on each kind: a closed loop of
 *   TRADE_BENCH_CONCURRENCY (32) requests in flight for TRADE_BENCH_QUOTE_S (10) seconds, after a
 *   2 s warm-up, sizes varying per request (BUY and SELL, both outcomes). Every answer must be 200.
 *   The load generator shares the machine's two cores with the service; it sends over raw
 *   keep-alive sockets (raw-http-lane.ts), one per request in flight.
 * - Block to public trade: a funded wallet sends TRADE_BENCH_POOL_TRADES (30) pool buys one after
 *   another; the bench polls the head every 10 ms and notes when each block is first seen, and a
 *   socket subscribed to the AMM market's `trades` channel notes when each print arrives. The
 *   latency is print arrival minus its block's first sighting (p50/p99).
 *
 * Writes bench/results/trade.json (TRADE_BENCH_RESULT_FILE).
 */
import { cpus, loadavg } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { writeBenchResult } from './bench-output';
import { RawHttpLane } from './raw-http-lane';
import { io as connectSocket } from 'socket.io-client';
import { createPublicClient, createWalletClient, http as viemHttp, maxUint256, type Address, type Hex } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { ammPoolAbi, collateralAbi } from '../src/chain/generated';
import { signBenchOrder } from './e2e/orders';
import { postJson } from './e2e/post-json';
import { startService, ROOT, type Service } from './e2e/service';
import { chainPortFor, createMarkets, devSecrets, E18, fundTraders, json, type BenchMarket } from './e2e/setup';
import { median, percentile, round1 } from './e2e/stats';

const CONCURRENCY = Number(process.env.TRADE_BENCH_CONCURRENCY ?? 32);
const QUOTE_S = Number(process.env.TRADE_BENCH_QUOTE_S ?? 10);
const POOL_TRADES = Number(process.env.TRADE_BENCH_POOL_TRADES ?? 30);
const RESULT_FILE = process.env.TRADE_BENCH_RESULT_FILE ?? join(ROOT, 'bench', 'results', 'trade.json');
const TARGET_PER_S = 2_000;

const log = (message: string) => process.stderr.write(`[trade-bench] ${message}\n`);
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

interface QuoteResult {
  kind: 'AMM' | 'CLOB';
  requests: number;
  per_s: number;
  p50_ms: number | null;
  p99_ms: number | null;
  non_200: number;
  first_error: string | null;
}

/** Quote bodies cycling over both sides, both outcomes and a spread of sizes. */
function quoteBodies({ chain_id, condition_id }: { chain_id: number; condition_id: string }): string[] {
  const bodies: string[] = [];
  for (const side of ['BUY', 'SELL'] as const) {
    for (const outcome of [0, 1]) {
      for (const amount of ['0.5', '1', '2.75', '5', '10', '17.3', '25', '40']) bodies.push(JSON.stringify({ chain_id, condition_id, outcome, side, amount }));
    }
  }
  return bodies;
}

async function quoteLoad(api: string, kind: QuoteResult['kind'], market: { chain_id: number; condition_id: string }, seconds: number): Promise<QuoteResult> {
  const bodies = quoteBodies(market);
  const latencies: number[] = [];
  let requests = 0;
  let non200 = 0;
  let firstError: string | null = null;
  const lanes = await Promise.all(Array.from({ length: CONCURRENCY }, () => RawHttpLane.open(api)));
  const until = performance.now() + seconds * 1000;
  const started = performance.now();
  try {
    await Promise.all(lanes.map(async (client, lane) => {
      for (let i = lane; performance.now() < until; i += CONCURRENCY) {
        const t0 = performance.now();
        const res = await client.post('/trade/quote', bodies[i % bodies.length]);
        latencies.push(performance.now() - t0);
        requests += 1;
        if (res.status !== 200) {
          non200 += 1;
          firstError ??= `${res.status} ${res.body.slice(0, 200)}`;
        }
      }
    }));
  } finally {
    for (const client of lanes) client.close();
  }
  const elapsed = (performance.now() - started) / 1000;
  return { kind, requests, per_s: Math.round(requests / elapsed), p50_ms: round1(median(latencies)), p99_ms: round1(percentile(latencies, 99)), non_200: non200, first_error: firstError };
}

async function ammMarket(api: string, admin: string): Promise<{ chain_id: number; condition_id: string; pool: Address }> {
  const created = await json<Record<string, any>>(`${api}/admin/markets`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-admin-token': admin, 'x-operator': 'trade-bench' },
    body: JSON.stringify({ question: `Bench AMM market (${Date.now()})?`, end_date: new Date(Date.now() + 30 * 86_400_000).toISOString(), fee_rate_bps: 100, kind: 'AMM', initial_liquidity: '1000' }),
  });
  if (created.status !== 201) throw new Error(`POST /admin/markets (AMM) answered ${created.status}: ${JSON.stringify(created.body)}`);
  const id = created.body.condition_id as string;
  const deadline = Date.now() + 120_000;
  let market: Record<string, any>;
  while ((market = (await json<Record<string, any>>(`${api}/v1/markets/${id}`)).body).status !== 'OPEN') {
    if (Date.now() > deadline) throw new Error(`AMM market ${id} not OPEN after 120 s: ${JSON.stringify(market)}`);
    await sleep(250);
  }
  // The pool is the address POST /trade sends a wallet's pool call to.
  const key = await json<Record<string, string>>(`${api}/admin/platform-keys`, {
    method: 'POST', headers: { 'content-type': 'application/json', 'x-admin-token': admin }, body: JSON.stringify({ name: 'trade bench' }),
  });
  const trade = await postJson<{ tx?: { to: Address } }>(`${api}/trade`, { 'fs-platform-key': key.body.key_id, 'fs-platform-secret': key.body.secret }, JSON.stringify({
    chain_id: market.chain_id, condition_id: id, wallet: '0x0000000000000000000000000000000000000001', outcome: 1, side: 'BUY', amount: '1',
  }));
  if (!trade.body.tx) throw new Error(`POST /trade answered ${trade.status}: ${JSON.stringify(trade.body)}`);
  return { chain_id: market.chain_id, condition_id: id, pool: trade.body.tx.to };
}

async function clobMarket(service: Service, admin: string): Promise<BenchMarket> {
  const [market] = await createMarkets(service.api, admin, 1, 'trade');
  const [, seller] = await fundTraders(chainPortFor(service.dataDir), service.dataDir, [market], 2, 1_000n * E18, 100n * E18);
  // Asks of YES at 0.45 .. 0.49, several per level: a BUY quote walks them.
  for (let i = 0; i < 25; i += 1) {
    const order = signBenchOrder(seller, market);
    const res = await postJson<{ results?: { error?: unknown }[] }>(`${service.api}/v1/orders`, { authorization: `Bearer ${seller.jwt}` }, JSON.stringify({ orders: [order.wire] }));
    if (res.status !== 200 || res.body.results?.[0]?.error) throw new Error(`ask refused: ${res.status} ${JSON.stringify(res.body)}`);
  }
  return market;
}

/** Pool buys one after another; per trade, its block's first sighting to its print on the socket, ms. */
async function poolTradeLatency(service: Service, market: { chain_id: number; condition_id: string; pool: Address }): Promise<number[]> {
  const port = chainPortFor(service.dataDir);
  const [trader] = await fundTraders(port, service.dataDir, [], 1, 10_000n * E18, 0n);
  const publicClient = createPublicClient({ transport: viemHttp(port.context.config.rpcUrl) });
  const wallet = createWalletClient({ chain: port.context.chain, transport: viemHttp(port.context.config.rpcUrl), account: privateKeyToAccount(trader.privateKey) });
  const approve = await wallet.writeContract({ address: port.addresses.collateral, abi: collateralAbi, functionName: 'approve', args: [market.pool, maxUint256] });
  await publicClient.waitForTransactionReceipt({ hash: approve, pollingInterval: 50 });

  const blockSeen = new Map<bigint, number>();
  let watching = true;
  const headPoll = (async () => {
    while (watching) {
      const head = await publicClient.getBlockNumber({ cacheTime: 0 }).catch(() => undefined);
      if (head !== undefined && !blockSeen.has(head)) blockSeen.set(head, performance.now());
      await sleep(10);
    }
  })();
  const printAt = new Map<string, number>();
  const socket = connectSocket(service.api, { path: '/v1/ws', transports: ['websocket'], reconnection: false, forceNew: true });
  socket.on('trades', (event: { trade_id?: string }) => {
    if (event.trade_id) printAt.set(event.trade_id, performance.now());
  });
  await new Promise<void>((resolve, reject) => {
    socket.once('connect', () => resolve());
    socket.once('connect_error', reject);
  });
  const ack = await socket.timeout(5_000).emitWithAck('subscribe', { channel: 'trades', condition_id: market.condition_id, chain_id: market.chain_id });
  if (!ack?.ok) throw new Error(`subscribe refused: ${JSON.stringify(ack)}`);

  const latencies: number[] = [];
  try {
    for (let i = 0; i < POOL_TRADES; i += 1) {
      const hash: Hex = await wallet.writeContract({ address: market.pool, abi: ammPoolAbi, functionName: 'buy', args: [E18, BigInt(i % 2), 0n] });
      const receipt = await publicClient.waitForTransactionReceipt({ hash, pollingInterval: 20 });
      const poolLog = receipt.logs.find((l) => l.address.toLowerCase() === market.pool.toLowerCase() && l.topics.length === 3);
      if (!poolLog) throw new Error(`pool buy ${hash} emitted no trade`);
      const tradeId = `pool:${market.chain_id}:${hash.toLowerCase()}:${poolLog.logIndex}`;
      const deadline = Date.now() + 30_000;
      while (!printAt.has(tradeId) && Date.now() < deadline) await sleep(5);
      const seen = blockSeen.get(receipt.blockNumber);
      if (printAt.has(tradeId) && seen !== undefined) latencies.push(printAt.get(tradeId)! - seen);
      else log(`no print or block sighting for ${tradeId}`);
    }
  } finally {
    watching = false;
    await headPoll;
    socket.disconnect();
  }
  return latencies;
}

async function main(): Promise<void> {
  const started = performance.now();
  let service: Service | undefined;
  const quotes: QuoteResult[] = [];
  let latencies: number[] = [];
  const notes: string[] = [];
  try {
    service = await startService({ logLevel: 'warn' });
    const admin = devSecrets(service.dataDir).ADMIN_TOKEN;
    const amm = await ammMarket(service.api, admin);
    const clob = await clobMarket(service, admin);
    log(`service, AMM and CLOB markets ready in ${((performance.now() - started) / 1000).toFixed(0)} s`);
    for (const [kind, market] of [['AMM', amm], ['CLOB', clob]] as const) {
      await quoteLoad(service.api, kind, market, 2);
      const result = await quoteLoad(service.api, kind, market, QUOTE_S);
      quotes.push(result);
      log(`${kind} quotes: ${result.per_s}/s, p50 ${result.p50_ms} ms, p99 ${result.p99_ms} ms, non-200 ${result.non_200}${result.first_error ? ` (${result.first_error})` : ''}`);
    }
    latencies = await poolTradeLatency(service, amm);
    if (latencies.length < POOL_TRADES) notes.push(`${POOL_TRADES - latencies.length} pool trades without a print or block sighting`);
  } finally {
    const code = await service?.stop();
    if (code !== undefined && code !== 0 && code !== null) notes.push(`service exited with ${code}`);
  }
  const result = {
    at: new Date().toISOString(),
    machine: { cpus: cpus().length, model: cpus()[0]?.model ?? null, load_average: loadavg().map((x) => Math.round(x * 10) / 10) },
    settings: { concurrency: CONCURRENCY, quote_seconds: QUOTE_S, pool_trades: POOL_TRADES },
    target_quotes_per_s: TARGET_PER_S,
    quotes,
    block_to_trade_ms: { samples: latencies.length, p50: round1(median(latencies)), p99: round1(percentile(latencies, 99)), max: round1(latencies.length ? Math.max(...latencies) : null) },
    notes,
  };
  writeBenchResult(RESULT_FILE, result);
  printTable(result);
}

function printTable(result: { quotes: QuoteResult[]; block_to_trade_ms: { samples: number; p50: number | null; p99: number | null; max: number | null }; notes: string[] }): void {
  const rows = [
    ['measure', 'value', 'p50 ms', 'p99 ms', 'target'],
    ...result.quotes.map((q) => [`POST /trade/quote ${q.kind} (req/s)`, String(q.per_s), String(q.p50_ms), String(q.p99_ms), `>= ${TARGET_PER_S}${q.per_s >= TARGET_PER_S && q.non_200 === 0 ? ' ok' : ' MISSED'}`]),
    ['pool trade block -> socket print (samples)', String(result.block_to_trade_ms.samples), String(result.block_to_trade_ms.p50), String(result.block_to_trade_ms.p99), '-'],
  ];
  const widths = rows[0].map((_, i) => Math.max(...rows.map((r) => r[i].length)));
  for (const row of rows) process.stdout.write(`${row.map((cell, i) => cell.padEnd(widths[i])).join('  ')}\n`);
  for (const note of result.notes) process.stdout.write(`note: ${note}\n`);
  process.stdout.write(`written to ${RESULT_FILE}\n`);
}

main().catch((error: unknown) => {
  process.stderr.write(`trade bench failed: ${error instanceof Error ? error.stack : String(error)}\n`);
  process.exit(1);
});
