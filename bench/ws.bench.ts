/**
 * Realtime gateway capacity (`npm run bench:ws`): the embedded stack as `npm start` runs it, ~100
 * orders/s matching on ten markets, and socket.io clients ramped in steps, each subscribed to
 * `book`, `ticker` and `trades` of one of the ten markets. The clients live in separate processes
 * (bench/ws-client.ts) so the load generator is not this process. Per step: connections held,
 * delta latency match-to-client p50/p99, messages delivered per second, API memory per connection
 * (RSS growth over the step without clients), and REST p99 (`GET /v1/markets/{id}/book`).
 *
 * Settings: WS_BENCH_STEPS (1000,2500,5000,10000), WS_BENCH_HOLD_S (15), WS_BENCH_CLIENTS (4
 * processes), WS_BENCH_ORDERS_PER_S (100), WS_BENCH_RESULT_FILE (bench/results/ws.json).
 * The service's per-address limits are raised for the run: every client here is 127.0.0.1.
 */
import { fork, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import http from 'node:http';
import { cpus, loadavg } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { runBench, writeBenchResult } from './bench-output';
import { pidOf } from './e2e/cpu';
import { signBenchOrder } from './e2e/orders';
import { postJson } from './e2e/post-json';
import { startService, ROOT, type Service } from './e2e/service';
import { chainPortFor, createMarkets, devSecrets, E18, fundTraders, type BenchMarket, type Trader } from './e2e/setup';
import { median, percentile, round1 } from './e2e/stats';

const STEPS = (process.env.WS_BENCH_STEPS ?? '1000,2500,5000,10000').split(',').map(Number);
const HOLD_S = Number(process.env.WS_BENCH_HOLD_S ?? 15);
const CLIENT_PROCESSES = Number(process.env.WS_BENCH_CLIENTS ?? 4);
const ORDERS_PER_S = Number(process.env.WS_BENCH_ORDERS_PER_S ?? 100);
const RESULT_FILE = process.env.WS_BENCH_RESULT_FILE ?? join(ROOT, 'bench', 'results', 'ws.json');
const TRADER_PAIRS = 10;

const log = (message: string) => process.stderr.write(`[ws-bench] ${message}\n`);
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

interface ClientReport {
  connected: number;
  opened: number;
  messages: number;
  deltaMs: number[];
  refused: Record<string, number>;
  dropped: number;
  memoryMb: number;
}

/** The client processes, driven over IPC. */
class Clients {
  private readonly children: ChildProcess[] = [];

  constructor(api: string, markets: BenchMarket[], count: number) {
    for (let i = 0; i < count; i += 1) {
      this.children.push(fork(join(__dirname, 'ws-client.ts'), [api, markets.map((m) => m.condition_id).join(','), '400'], {
        execArgv: ['--import', 'tsx'],
        stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
      }));
    }
  }

  target(total: number): void {
    this.children.forEach((child, i) => child.send({ type: 'target', connections: Math.floor(total / this.children.length) + (i < total % this.children.length ? 1 : 0) }));
  }

  async report(): Promise<ClientReport> {
    const reports = await Promise.all(this.children.map((child) => new Promise<ClientReport>((resolve) => {
      const on = (m: { type: string } & ClientReport) => {
        if (m.type !== 'report') return;
        child.off('message', on);
        resolve(m);
      };
      child.on('message', on);
      child.send({ type: 'report' });
    })));
    const refused: Record<string, number> = {};
    for (const r of reports) for (const [code, n] of Object.entries(r.refused)) refused[code] = (refused[code] ?? 0) + n;
    return {
      connected: reports.reduce((n, r) => n + r.connected, 0),
      opened: reports.reduce((n, r) => n + r.opened, 0),
      messages: reports.reduce((n, r) => n + r.messages, 0),
      deltaMs: reports.flatMap((r) => r.deltaMs),
      refused,
      dropped: reports.reduce((n, r) => n + r.dropped, 0),
      memoryMb: reports.reduce((n, r) => n + r.memoryMb, 0),
    };
  }

  stop(): void {
    for (const child of this.children) {
      child.send({ type: 'stop' });
      setTimeout(() => child.kill('SIGKILL'), 3_000).unref();
    }
  }
}

/** ~ORDERS_PER_S orders a second: a crossing buy/sell pair every 2000/ORDERS_PER_S ms, markets in turn. */
function startOrderFlow(api: string, traders: Trader[], markets: BenchMarket[]) {
  const buyers = traders.filter((t) => t.role === 'buyer');
  const sellers = traders.filter((t) => t.role === 'seller');
  const counts = { sent: 0, accepted: 0, failed: 0, skipped: 0, errors: [] as string[] };
  let inFlight = 0;
  let k = 0;
  const post = async (trader: Trader, market: BenchMarket) => {
    const order = signBenchOrder(trader, market);
    counts.sent += 1;
    inFlight += 1;
    try {
      const res = await postJson<{ results?: { error?: unknown }[] }>(`${api}/v1/orders`, { authorization: `Bearer ${trader.jwt}` }, JSON.stringify({ orders: [order.wire] }));
      if (res.status === 200 && res.body.results?.[0] && !res.body.results[0].error) counts.accepted += 1;
      else {
        counts.failed += 1;
        if (counts.errors.length < 5) counts.errors.push(`${res.status} ${JSON.stringify(res.body).slice(0, 300)}`);
      }
    } catch (error) {
      counts.failed += 1;
      if (counts.errors.length < 5) counts.errors.push(String(error));
    } finally {
      inFlight -= 1;
    }
  };
  const timer = setInterval(() => {
    if (inFlight > 200) return void (counts.skipped += 2);
    const pair = k % TRADER_PAIRS;
    const market = markets[k % markets.length];
    k += 1;
    void post(buyers[pair], market);
    void post(sellers[pair], market);
  }, 2000 / ORDERS_PER_S);
  return { counts, stop: () => clearInterval(timer) };
}

const restAgent = new http.Agent({ keepAlive: true, maxSockets: 1, timeout: 4_000 });

/** Sequential REST reads of one market's book for `ms`; each one's latency. */
async function restLatencies(api: string, market: BenchMarket, ms: number): Promise<number[]> {
  const samples: number[] = [];
  const until = Date.now() + ms;
  while (Date.now() < until) {
    const started = performance.now();
    await new Promise<void>((resolve) => {
      const req = http.get(`${api}/v1/markets/${market.condition_id}/book`, { agent: restAgent, timeout: 30_000 }, (res) => {
        res.resume();
        res.on('end', () => resolve());
      });
      req.on('error', () => resolve());
      req.on('timeout', () => req.destroy());
    });
    samples.push(performance.now() - started);
    await sleep(20);
  }
  return samples;
}

const rssKb = (pid: number | null): number | null => {
  if (pid === null) return null;
  const line = readFileSync(`/proc/${pid}/status`, 'utf8').split('\n').find((l) => l.startsWith('VmRSS:'));
  return line ? Number(line.split(/\s+/)[1]) : null;
};

interface StepResult {
  target: number;
  connections_held: number;
  refused: Record<string, number>;
  dropped: number;
  delta_p50_ms: number | null;
  delta_p99_ms: number | null;
  delta_samples: number;
  messages_per_s: number;
  api_rss_mb: number | null;
  kb_per_connection: number | null;
  rest_p50_ms: number | null;
  rest_p99_ms: number | null;
  client_processes_rss_mb: number;
  load_average: number[];
}

async function main(): Promise<void> {
  const started = performance.now();
  process.env.E2E_SERVICE_ENV = [
    process.env.E2E_SERVICE_ENV ?? '',
    'WS_MAX_CONNECTIONS_PER_ADDRESS=100000 WS_HANDSHAKES_PER_SECOND=10000 WS_HANDSHAKE_BURST=10000',
  ].join(' ');
  let service: Service | undefined;
  let clients: Clients | undefined;
  let flow: ReturnType<typeof startOrderFlow> | undefined;
  const steps: StepResult[] = [];
  const notes: string[] = [];
  try {
    service = await startService({ logLevel: 'warn' });
    const apiPid = service.child.pid === undefined ? null : pidOf(service.child.pid, 'api');
    const secrets = devSecrets(service.dataDir);
    const markets = await createMarkets(service.api, secrets.ADMIN_TOKEN, 10, 'ws');
    const traders = await fundTraders(chainPortFor(service.dataDir), service.dataDir, markets, 2 * TRADER_PAIRS, 1_000_000n * E18, 100_000n * E18);
    log(`service, 10 markets and ${traders.length} wallets ready in ${((performance.now() - started) / 1000).toFixed(0)} s`);
    flow = startOrderFlow(service.api, traders, markets);
    clients = new Clients(service.api, markets, CLIENT_PROCESSES);
    await sleep(5_000);
    await clients.report(); // start the window
    const measure = async (target: number): Promise<StepResult> => {
      const rss = rssKb(apiPid);
      const rest = await restLatencies(service!.api, markets[0], HOLD_S * 1000);
      const windowStart = performance.now();
      const report = await clients!.report();
      const seconds = (performance.now() - windowStart + HOLD_S * 1000) / 1000;
      return {
        target,
        connections_held: report.connected,
        refused: report.refused,
        dropped: report.dropped,
        delta_p50_ms: round1(median(report.deltaMs)),
        delta_p99_ms: round1(percentile(report.deltaMs, 99)),
        delta_samples: report.deltaMs.length,
        messages_per_s: Math.round(report.messages / seconds),
        api_rss_mb: rss === null ? null : Math.round(rss / 1024),
        kb_per_connection: null,
        rest_p50_ms: round1(median(rest)),
        rest_p99_ms: round1(percentile(rest, 99)),
        client_processes_rss_mb: report.memoryMb,
        load_average: loadavg().map((x) => Math.round(x * 10) / 10),
      };
    };
    const idle = await measure(0);
    steps.push(idle);
    log(`idle: REST p99 ${idle.rest_p99_ms} ms, API RSS ${idle.api_rss_mb} MB`);
    for (const target of STEPS) {
      clients.target(target);
      const rampUntil = Date.now() + 120_000;
      let held = 0;
      while (Date.now() < rampUntil) {
        await sleep(2_000);
        const r = await clients.report();
        held = r.connected;
        if (r.opened >= target && held >= target * 0.99) break;
        if (r.opened >= target && Object.values(r.refused).reduce((a, b) => a + b, 0) > 0 && held + Object.values(r.refused).reduce((a, b) => a + b, 0) >= target) break;
      }
      await sleep(2_000);
      await clients.report();
      const step = await measure(target);
      if (step.api_rss_mb !== null && idle.api_rss_mb !== null && step.connections_held > 0) {
        step.kb_per_connection = Math.round(((step.api_rss_mb - idle.api_rss_mb) * 1024) / step.connections_held * 10) / 10;
      }
      steps.push(step);
      log(`${target}: held ${step.connections_held}, delta p50/p99 ${step.delta_p50_ms}/${step.delta_p99_ms} ms, ${step.messages_per_s} msg/s, ${step.kb_per_connection} KB/conn, REST p99 ${step.rest_p99_ms} ms, load ${step.load_average.join(' ')}`);
      if (step.connections_held < target * 0.5) {
        notes.push(`stopped after ${target}: fewer than half the connections held`);
        break;
      }
    }
  } finally {
    flow?.stop();
    clients?.stop();
    const code = await service?.stop();
    if (code !== undefined && code !== 0 && code !== null) notes.push(`service exited with ${code}`);
  }
  const loaded = steps.slice(1);
  const best = loaded.reduce<StepResult | undefined>((b, s) => (!b || s.connections_held > b.connections_held ? s : b), undefined);
  const result = {
    connections_held: best?.connections_held ?? 0,
    delta_p99_ms: best?.delta_p99_ms ?? null,
    messages_per_s: Math.max(0, ...loaded.map((s) => s.messages_per_s)),
    kb_per_connection: best?.kb_per_connection ?? null,
    rest_p99_idle_ms: steps[0]?.rest_p99_ms ?? null,
    rest_p99_loaded_ms: best?.rest_p99_ms ?? null,
    orders: flow?.counts,
    steps,
    machine: { cores: cpus().length, load_average_at_end: loadavg().map((x) => Math.round(x * 10) / 10) },
    settings: { steps: STEPS, hold_s: HOLD_S, client_processes: CLIENT_PROCESSES, orders_per_s: ORDERS_PER_S },
    notes,
    run_s: Math.round((performance.now() - started) / 1000),
  };
  console.table(steps.map((s) => ({
    target: s.target, held: s.connections_held, 'delta p50 ms': s.delta_p50_ms, 'delta p99 ms': s.delta_p99_ms, 'msg/s': s.messages_per_s,
    'KB/conn': s.kb_per_connection, 'REST p99 ms': s.rest_p99_ms, load: s.load_average[0],
  })));
  writeBenchResult(RESULT_FILE, result);
  log(`written ${RESULT_FILE}`);
}

runBench(main, log);
