/**
 * End-to-end order throughput and latency on the embedded stack (docs/benchmarks.md).
 *
 *   npm run bench:e2e        builds, starts dist/src/supervisor/main.js on a temp DATA_DIR and free
 *                            loopback ports, runs the phases below, prints a table and writes
 *                            bench/results/e2e.json
 *
 * Phases, interleaved round by round so that a shared machine's drift hits all of them alike:
 *   one market   closed loop: E2E_CLIENTS wallets (half buyers, half sellers), each POSTing batches of
 *                E2E_BATCH pre-signed crossing orders back to back, E2E_ORDERS orders per round;
 *                accepted/s (all POSTs answered) and matched/s (every order seen matched)
 *   ten markets  the same, each batch for one of ten markets
 *   singles      the same load on one market with 1 order per request (coalescing still on)
 *   baseline     one order per request, one request at a time (sequential), one market: the POST
 *                awaits its hand-off signal, so no two submits ever coalesce = one signal per order
 * after all rounds, sustained: the one-market closed loop of E2E_SUSTAINED_ORDERS (3000) orders,
 *                each followed until it settled on chain: orders settled per second (matching and
 *                settlement sharing the machine; a round's matched/s is a burst settled after it)
 * then latency: open loop at 50% of the sustained rate, buy/sell pairs in requests of E2E_BATCH
 * orders, then each in its own 1-order request, POST start -> matched event, p50/p99; last, single
 * orders at 50% of the median one-market matched rate (a burst rate settlement cannot keep up with).
 * Each latency phase also counts what its orders cost (bench/e2e/cost.ts): CPU-ms per process, store
 * commands, Temporal signals, workflow tasks and requests, bytes, per matched order; and, before
 * them, the service idle for E2E_IDLE_S (5) seconds, the background every window carries.
 * "Matched" = first user-channel event (order PARTIALLY_FILLED/MATCHED/FILLED, or a fill) on /v1/ws;
 * if the service publishes no user events, GET /v1/orders?status=filled polling (said in the output).
 *
 * heartbeat load, after the rounds: E2E_HEARTBEAT_BURSTS (3) bursts per run of the one-market closed
 *                loop of E2E_HEARTBEAT_ORDERS (E2E_ORDERS) orders, each once the previous settled,
 *                without and with E2E_HEARTBEAT_WALLETS (1000) wallets POSTing /v1/heartbeat once a
 *                second each (runs without, with, with, without; medians): `heartbeat_load_ratio`
 *                = with / without. Opt-in (E2E_HEARTBEAT=1): heartbeats slow matching today, and
 *                the phases after it would measure that backlog instead of their own load.
 * Scale with env vars: E2E_ROUNDS (3), E2E_ORDERS (1500), E2E_CLIENTS (8), E2E_BATCH (15),
 * E2E_SINGLES_ORDERS (60), E2E_BASELINE_ORDERS (40), E2E_LAT_SECONDS (20), E2E_ROUND_TIMEOUT_S (60, per phase),
 * E2E_BUDGET_S (420: no new round after that), E2E_SUSTAINED_ORDERS (3000), E2E_HALF_BURST (1; 0 skips that phase), E2E_LAT_RATE (orders/s; default
 * 50% of the sustained rate), E2E_LOG_LEVEL (warn), E2E_RESULT_FILE (bench/results/e2e.json). Every wait is bounded; the whole run stays near 10 minutes.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { closedLoop, newPostStats, openLoop, sequential, type PostStats } from './e2e/load';
import { MatchObserver } from './e2e/observer';
import { batchPairStream, closedLoopStreams, pairStream, type SignedBenchOrder } from './e2e/orders';
import { CostMeter, costPerOrder, cpuPerOrder, type CostCounts } from './e2e/cost';
import { printCostTable } from './e2e/cost-table';
import { CpuMeter } from './e2e/cpu';
import { metricsUrlOf } from './e2e/listen-ports';
import { disarmAll, heartbeatWallets, startHeartbeats, type HeartbeatStats } from './e2e/heartbeat-load';
import { serviceSettings, startService, ROOT, type Service } from './e2e/service';
import { chainPortFor, createMarkets, devSecrets, E18, fundTraders, json, type BenchMarket, type Trader } from './e2e/setup';
import { median, percentile, round1 } from './e2e/stats';
import { positiveEnv } from './positive-env';

const ROUNDS = positiveEnv('E2E_ROUNDS', 3);
const ORDERS = positiveEnv('E2E_ORDERS', 1500);
const CLIENTS = Math.max(2, Math.floor(positiveEnv('E2E_CLIENTS', 8) / 2) * 2);
const BATCH = Math.min(15, positiveEnv('E2E_BATCH', 15));
const SINGLES = positiveEnv('E2E_SINGLES_ORDERS', 60);
const BASELINE = positiveEnv('E2E_BASELINE_ORDERS', 40);
const LAT_SECONDS = positiveEnv('E2E_LAT_SECONDS', 20);
const ROUND_TIMEOUT_MS = positiveEnv('E2E_ROUND_TIMEOUT_S', 60) * 1000;
/** Longest wait for the rounds' settlement to finish before the latency phases. */
const SETTLE_WAIT_MS = positiveEnv('E2E_SETTLE_WAIT_S', 120) * 1000;
/** A drain ends early once no order settled for this long: a few orders whose end never shows must not cost every drain its full wait. */
const SETTLE_STALLED_MS = positiveEnv('E2E_SETTLE_STALLED_S', 15) * 1000;
const SUSTAINED_ORDERS = positiveEnv('E2E_SUSTAINED_ORDERS', 3000);
/** No new round starts once this much of the run is spent (setup included); the latency phase still runs. */
const BUDGET_MS = positiveEnv('E2E_BUDGET_S', 420) * 1000;
const HEARTBEAT = process.env.E2E_HEARTBEAT === '1';
const HEARTBEAT_WALLETS = positiveEnv('E2E_HEARTBEAT_WALLETS', 1000);
const HEARTBEAT_ORDERS = positiveEnv('E2E_HEARTBEAT_ORDERS', ORDERS);
/** Bursts per heartbeat-load run: two runs of each side give 2x this many rates to take medians of. */
const HEARTBEAT_BURSTS = positiveEnv('E2E_HEARTBEAT_BURSTS', 3);
/** Switch timeout of the load's beats: well above the beat interval, as a market maker sets it. */
const HEARTBEAT_TIMEOUT_S = 30;
/** Beats in steady state (every switch armed) for this long before the measurement starts. */
const HEARTBEAT_WARMUP_MS = 3_000;
/** Longest wait for every heartbeat wallet's first beat to be answered (its switch armed). */
const HEARTBEAT_ARM_WAIT_MS = positiveEnv('E2E_HEARTBEAT_ARM_WAIT_S', 120) * 1000;
/** Length of the idle window measured before the latency phases. */
const IDLE_S = positiveEnv('E2E_IDLE_S', 5);
const RESULT_FILE = process.env.E2E_RESULT_FILE ? path.resolve(process.env.E2E_RESULT_FILE) : path.join(ROOT, 'bench', 'results', 'e2e.json');

const log = (line: string) => process.stdout.write(`[e2e] ${line}\n`);
const load = () => os.loadavg().map((x) => Math.round(x * 100) / 100);

interface PhaseResult {
  phase: string;
  round: number;
  markets: number;
  orders: number;
  accepted: number;
  rejected: number;
  http_errors: number;
  matched: number;
  match_failed: number;
  accepted_per_s: number | null;
  matched_per_s: number | null;
  post_p50_ms: number | null;
  post_p99_ms: number | null;
  complete: boolean;
  seconds: number | null;
  load_avg_1m: number;
  /** Cores the service and the bench kept busy over the phase, and CPU seconds per process role (bench/e2e/cpu.ts). */
  cpu_cores: number | null;
  cpu_s: Record<string, number> | null;
  error_samples: string[];
}

/** CPU per phase: each phase calls `start()` as it begins, `summarize` reads what it used. */
let meter: CpuMeter | undefined;
/** Store commands, Temporal requests and bytes over the latency phases and the idle window (bench/e2e/cost.ts). */
let cost: CostMeter | undefined;

function summarize(phase: string, round: number, markets: number, orders: SignedBenchOrder[], stats: PostStats, observer: MatchObserver, complete: boolean): PhaseResult {
  const times = orders.map((o) => observer.matchedAt.get(o.hash)).filter((t): t is number => t !== undefined);
  const matchedEnd = times.length > 0 ? Math.max(...times) : null;
  const accepted = stats.accepted;
  const cpu = meter?.since() ?? null;
  const r: PhaseResult = {
    phase, round, markets, orders: orders.length, accepted, rejected: stats.rejected, http_errors: stats.httpErrors,
    matched: times.length,
    match_failed: orders.filter((o) => observer.failed.has(o.hash)).length,
    accepted_per_s: stats.lastResponse > stats.firstPost ? round1((accepted * 1000) / (stats.lastResponse - stats.firstPost)) : null,
    matched_per_s: matchedEnd !== null ? round1((times.length * 1000) / (matchedEnd - stats.firstPost)) : null,
    post_p50_ms: round1(percentile(stats.requestMs, 50)),
    post_p99_ms: round1(percentile(stats.requestMs, 99)),
    complete,
    seconds: matchedEnd !== null ? round1((matchedEnd - stats.firstPost) / 1000) : null,
    load_avg_1m: load()[0],
    cpu_cores: cpu?.cores ?? null,
    cpu_s: cpu?.seconds ?? null,
    error_samples: stats.errorSamples,
  };
  log(`${phase} round ${round}: ${r.accepted}/${r.orders} accepted (${r.accepted_per_s}/s), ${r.matched} matched (${r.matched_per_s}/s) in ${r.seconds}s, ` +
    `POST p50 ${r.post_p50_ms} ms p99 ${r.post_p99_ms} ms, load ${r.load_avg_1m}, CPU ${r.cpu_cores ?? '?'} cores${complete ? '' : ' INCOMPLETE'}${r.error_samples.length ? ` errors: ${r.error_samples.join(' | ')}` : ''}`);
  return r;
}

/**
 * The service with no bench load for E2E_IDLE_S seconds, settlement drained: what it spends on
 * its own (the chain, Temporal's timers and polls, the demo bots), which every phase's CPU and
 * counts carry too.
 */
async function idleWindow(): Promise<Record<string, unknown> | null> {
  if (!meter || !cost) return null;
  meter.start();
  await cost.start();
  await new Promise((r) => setTimeout(r, IDLE_S * 1000));
  const counts: CostCounts = await cost.since();
  const cpu = meter.since();
  const perSecond = (r: Record<string, number> | null | undefined) =>
    (r ? round1(Object.values(r).reduce((a, b) => a + b, 0) / counts.seconds) : null);
  const figures = {
    seconds: round1(counts.seconds),
    cores_by_process: cpu ? Object.fromEntries(Object.entries(cpu.seconds).map(([k, v]) => [k, Math.round((v / counts.seconds) * 100) / 100])) : null,
    store_commands_per_s: { api: perSecond(counts.store_commands?.api), worker: perSecond(counts.store_commands?.worker) },
    temporal_requests_per_s: perSecond(counts.temporal_requests),
  };
  log(`idle for ${figures.seconds} s: cores ${JSON.stringify(figures.cores_by_process)}, store commands/s ${JSON.stringify(figures.store_commands_per_s)}, Temporal requests/s ${String(figures.temporal_requests_per_s)}`);
  return figures;
}

/**
 * E2E_SAMPLES_FILE: one JSON line per order of each latency phase, times in epoch ms (scheduled,
 * POST start, POST answered, matched event seen), to line the tail up with what the
 * service did at the time (its logs, the Temporal store kept with E2E_KEEP_DATA).
 */
function writeSamples(label: string, orders: SignedBenchOrder[], scheduledAt: Map<string, number>, stats: PostStats, observer: MatchObserver): void {
  const file = process.env.E2E_SAMPLES_FILE;
  if (!file) return;
  const epoch = (t: number | undefined) => (t === undefined ? null : Math.round((performance.timeOrigin + t) * 10) / 10);
  const lines = orders.map((order) => JSON.stringify({
    phase: label,
    hash: order.hash,
    scheduled: epoch(scheduledAt.get(order.hash)),
    posted: epoch(stats.postedAt.get(order.hash)),
    answered: epoch(stats.answeredAt.get(order.hash)),
    matched: epoch(observer.matchedAt.get(order.hash)),
  }));
  fs.appendFileSync(path.resolve(file), `${lines.join('\n')}\n`);
}

/**
 * Whether settlement kept up with a phase: waits (at most E2E_SETTLE_WAIT_S) until every order of
 * it is seen FILLED or MATCH_FAILED, then the rate at which they settled from the first POST, how
 * long after the last order's match the last one settled (`settlement_lag_s`: near the time one
 * settlement takes when settlement kept up; growing with the phase's length when it fell behind),
 * and POST -> settled percentiles.
 */
async function settlementOf(observer: MatchObserver, orders: SignedBenchOrder[], stats: PostStats): Promise<Record<string, number | null>> {
  const unsettled = await observer.waitSettled(performance.now() + SETTLE_WAIT_MS);
  const settled: number[] = [];
  const fromPost: number[] = [];
  for (const o of orders) {
    const at = observer.settledAt.get(o.hash);
    if (at === undefined) continue;
    settled.push(at);
    const posted = stats.postedAt.get(o.hash);
    if (posted !== undefined) fromPost.push(at - posted);
  }
  const matched = orders.map((o) => observer.matchedAt.get(o.hash)).filter((t): t is number => t !== undefined);
  if (unsettled < 0 || settled.length === 0) return { settled: null, settled_per_s: null, settlement_lag_s: null };
  const lastSettled = Math.max(...settled);
  return {
    settled: settled.length,
    still_settling: unsettled,
    settled_per_s: round1((settled.length * 1000) / (lastSettled - stats.firstPost)),
    settlement_lag_s: round1((lastSettled - Math.max(...matched)) / 1000),
    post_to_settled_p50_ms: round1(percentile(fromPost, 50)),
    post_to_settled_p99_ms: round1(percentile(fromPost, 99)),
  };
}

/**
 * The sustained one-market rate: E2E_SUSTAINED_ORDERS orders in the closed loop of the one-market
 * phase, each followed to the end of its settlement on chain; the rate is orders settled / (last
 * settled − first POST). Matching and settlement share the machine, so this is the rate the whole
 * pipeline keeps up with, where a round's matched/s is a burst whose settlement runs after it.
 */
async function runSustained(api: string, observer: MatchObserver, traders: Trader[], market: BenchMarket): Promise<PhaseResult & Record<string, unknown>> {
  const phase = await closedPhase(api, observer, traders, [market], SUSTAINED_ORDERS, BATCH, 'one market, to settlement', 1);
  const settlement = await settlementOf(observer, phase.orders, phase.stats);
  log(`sustained: ${String(settlement.settled)} settled at ${String(settlement.settled_per_s)}/s (last settled ${String(settlement.settlement_lag_s)} s after the last match)`);
  return { ...phase.result, ...settlement };
}

async function runClosed(api: string, observer: MatchObserver, traders: Trader[], markets: BenchMarket[], total: number, batch: number, phase: string, round: number): Promise<PhaseResult> {
  return (await closedPhase(api, observer, traders, markets, total, batch, phase, round)).result;
}

/** A closed-loop phase (`closedLoop`), its orders and its POST stats. */
async function closedPhase(
  api: string, observer: MatchObserver, traders: Trader[], markets: BenchMarket[], total: number, batch: number, phase: string, round: number,
): Promise<{ result: PhaseResult; orders: SignedBenchOrder[]; stats: PostStats }> {
  const streams = closedLoopStreams(traders, markets, Math.ceil(total / traders.length), batch);
  const orders = streams.flat(2);
  observer.track(orders);
  meter?.start();
  const stats = newPostStats();
  const sinceWall = Date.now();
  const deadline = performance.now() + ROUND_TIMEOUT_MS;
  const hashes = orders.map((o) => o.hash);
  const [, complete] = await Promise.all([closedLoop(api, streams, traders, stats, deadline), observer.waitFor(hashes, deadline, sinceWall)]);
  return { result: summarize(phase, round, markets.length, orders, stats, observer, complete), orders, stats };
}

async function runBaseline(api: string, observer: MatchObserver, traders: Trader[], market: BenchMarket, round: number): Promise<PhaseResult> {
  const orders = pairStream(traders, market, Math.ceil(BASELINE / 2)).flat();
  observer.track(orders);
  meter?.start();
  const stats = newPostStats();
  const sinceWall = Date.now();
  const deadline = performance.now() + ROUND_TIMEOUT_MS;
  const [, complete] = await Promise.all([sequential(api, orders, stats, deadline), observer.waitFor(orders.map((o) => o.hash), deadline, sinceWall)]);
  return summarize('baseline (1 order/request, sequential)', round, 1, orders, stats, observer, complete);
}

async function probe(api: string, observer: MatchObserver, traders: Trader[], market: BenchMarket): Promise<string> {
  const orders = pairStream(traders, market, 1).flat();
  const stats = newPostStats();
  await sequential(api, orders, stats, performance.now() + 30_000);
  if (stats.accepted !== 2) throw new Error(`probe orders not accepted: ${stats.errorSamples.join(' | ')}`);
  if (await observer.waitFor(orders.map((o) => o.hash), performance.now() + 20_000, Date.now() - 60_000)) {
    return `socket user channel (${observer.userEvents} user events for the probe pair)`;
  }
  log(`no matched user event within 20 s (${observer.userEvents} user events so far); trying GET /v1/orders polling`);
  observer.setMode('rest');
  observer.track(orders);
  if (await observer.waitFor(orders.map((o) => o.hash), performance.now() + 30_000, Date.now() - 60_000)) {
    return 'GET /v1/orders?status=filled polling every 0.5 s per wallet (the service published no matched user events)';
  }
  throw new Error('the probe pair never matched (neither a user event nor MATCHED/FILLED in GET /v1/orders within 50 s)');
}

async function main(): Promise<void> {
  const startedAt = new Date().toISOString();
  const t0 = performance.now();
  const loadBefore = load();
  log(`starting the service (load average ${loadBefore.join(' ')}, ${os.cpus().length} CPUs)`);
  let service: Service | undefined;
  let observer: MatchObserver | undefined;
  const phases: PhaseResult[] = [];
  const notes: string[] = [];
  let matchedVia = 'n/a';
  let latency = null as Record<string, unknown> | null;
  let latencyBatched = null as Record<string, unknown> | null;
  let settlementDrain = null as { waited_s: number | null; still_settling: number } | null;
  let settlementDrainBetween = null as { waited_s: number | null; still_settling: number } | null;
  let sustainedPhase = null as (PhaseResult & Record<string, unknown>) | null;
  let latencyHalfBurst = null as Record<string, unknown> | null;
  let heartbeatLoad = null as Record<string, unknown> | null;
  let idle = null as Record<string, unknown> | null;
  try {
    service = await startService({ logLevel: process.env.E2E_LOG_LEVEL ?? 'warn' });
    if (service.child.pid !== undefined) {
      meter = new CpuMeter(service.child.pid);
      const temporalMetrics = await metricsUrlOf(service.child.pid, 'temporal', '127.0.0.1');
      if (!temporalMetrics) notes.push('the Temporal dev server\'s /metrics was not found: its request counts are null');
      cost = new CostMeter({
        rootPid: service.child.pid, apiMetrics: `${service.api}/metrics`, workerMetrics: service.workerMetrics, temporalMetrics,
        namespace: serviceSettings(process.env.E2E_SERVICE_ENV).TEMPORAL_NAMESPACE ?? 'default',
      });
    }
    log(`service ready in ${((performance.now() - t0) / 1000).toFixed(1)} s at ${service.api}`);
    const secrets = devSecrets(service.dataDir);
    const [one] = await createMarkets(service.api, secrets.ADMIN_TOKEN, 1, 'one');
    const ten = await createMarkets(service.api, secrets.ADMIN_TOKEN, 10, 'ten');
    const port = chainPortFor(service.dataDir);
    const traders = await fundTraders(port, service.dataDir, [one, ...ten], CLIENTS, 1_000_000n * E18, 100_000n * E18);
    log(`markets and ${traders.length} wallets funded in ${((performance.now() - t0) / 1000).toFixed(1)} s`);

    observer = new MatchObserver(service.api, traders, [one, ...ten].map((m) => m.condition_id));
    try {
      await observer.connect();
    } catch (error) {
      notes.push(`socket connect failed: ${error instanceof Error ? error.message : String(error)}`);
      observer.setMode('rest');
    }
    matchedVia = await probe(service.api, observer, traders, one);
    log(`matched observed via ${matchedVia}`);

    const o = observer;
    const phaseDone = async (result: PhaseResult) => {
      phases.push(result);
      if (!result.complete) {
        log(`  waiting for the service to go quiet: ${await o.quiet(3_000, 30_000) ? 'quiet' : 'still busy after 30 s'}`);
        // A stalled store makes every later phase a row of timeouts: say so and stop early.
        const started = performance.now();
        const answer = await json(`${service!.api}/v1/markets?limit=1`, { signal: AbortSignal.timeout(15_000) }).then(
          (r) => (r.status === 200 ? 'ok' : `HTTP ${r.status} ${JSON.stringify(r.body).slice(0, 200)}`),
          (error: unknown) => (error instanceof Error ? error.message : String(error)),
        );
        if (answer !== 'ok') {
          throw new Error(`service stalled: GET /v1/markets gave "${answer}" after ${Math.round(performance.now() - started)} ms, after phase "${result.phase}" (see docs/benchmarks.md, "Diagnosing a slow run")`);
        }
      }
      if (service!.child.exitCode !== null) throw new Error('the service exited during the run');
    };
    const burstRates: number[] = [];
    /**
     * Open loop at half of `full` orders/s (E2E_LAT_RATE overrides, except for `extra` phases); `k`
     * orders per request (1: every order its own POST). `basis` names what `full` is in the label.
     */
    const runLatency = async (full: number, k: number, basis = '', extra = false): Promise<Record<string, unknown>> => {
      const rate = process.env.E2E_LAT_RATE && !extra ? positiveEnv('E2E_LAT_RATE', 1) : Math.max(2, full / 2);
      const groups = batchPairStream(traders, one, Math.max(1, Math.round((rate * LAT_SECONDS) / (2 * k))), k);
      const label = `latency (open loop${k === 1 ? '' : `, ${k} orders/request`}${basis ? `, ${basis}` : ''})`;
      log(`${label}: ${rate.toFixed(1)} orders/s for ${LAT_SECONDS} s (${groups.length * 2 * k} orders, ${k} order${k === 1 ? '' : 's'} per request)`);
      meter?.start();
      await cost?.start();
      const stats = newPostStats();
      const orders = groups.flatMap(([buys, sells]) => [...buys, ...sells]);
      const sinceWall = Date.now();
      const hashes = orders.map((order) => order.hash);
      const waitDeadline = performance.now() + LAT_SECONDS * 1000 + ROUND_TIMEOUT_MS;
      const [open, complete] = await Promise.all([
        openLoop(service!.api, groups, rate, stats, o),
        (async () => {
          await new Promise((r) => setTimeout(r, 100));
          return o.waitFor(hashes, waitDeadline, sinceWall);
        })(),
      ]);
      const counts = await cost?.since();
      const fromPost: number[] = [];
      const fromSchedule: number[] = [];
      for (const order of orders) {
        const at = o.matchedAt.get(order.hash);
        const posted = stats.postedAt.get(order.hash);
        const due = open.scheduledAt.get(order.hash);
        if (at === undefined || posted === undefined || due === undefined) continue;
        fromPost.push(at - posted);
        fromSchedule.push(at - due);
      }
      writeSamples(label, orders, open.scheduledAt, stats, o);
      const summary = summarize(label, 1, 1, orders, stats, o, complete);
      phases.push(summary);
      const settlement = await settlementOf(o, orders, stats);
      const figures = {
        target_orders_per_s: round1(rate),
        orders_per_request: k,
        achieved_accepted_per_s: summary.accepted_per_s,
        orders: orders.length,
        matched: fromPost.length,
        late_sends: open.lateSends,
        p50_ms: round1(percentile(fromPost, 50)),
        p90_ms: round1(percentile(fromPost, 90)),
        p99_ms: round1(percentile(fromPost, 99)),
        max_ms: round1(percentile(fromPost, 100)),
        p99_from_schedule_ms: round1(percentile(fromSchedule, 99)),
        post_response_p50_ms: summary.post_p50_ms,
        post_response_p99_ms: summary.post_p99_ms,
        cpu_cores: summary.cpu_cores,
        cpu_s: summary.cpu_s,
        cpu_ms_per_order: cpuPerOrder(summary.cpu_s, fromPost.length),
        cost: counts ? costPerOrder(counts, fromPost.length) : null,
        ...settlement,
      };
      log(`${label} POST -> matched: p50 ${figures.p50_ms} ms, p90 ${figures.p90_ms} ms, p99 ${figures.p99_ms} ms, max ${figures.max_ms} ms (${fromPost.length}/${orders.length} matched, ${open.lateSends} late sends)`);
      if (o.observeMode === 'rest') notes.push('latencies are quantized by the 0.5 s REST polling (plus the time a poll takes): upper bounds, not event times');
      return figures;
    };
    for (let round = 1; round <= ROUNDS; round += 1) {
      if (round > 1 && process.env.E2E_PAUSE_S) await new Promise((r) => setTimeout(r, Number(process.env.E2E_PAUSE_S) * 1000));
      if (round > 1 && performance.now() - t0 > BUDGET_MS) {
        notes.push(`stopped after ${round - 1} round(s): time budget E2E_BUDGET_S spent`);
        break;
      }
      const oneMarket = await runClosed(service.api, observer, traders, [one], ORDERS, BATCH, 'one market', round);
      burstRates.push(oneMarket.matched_per_s ?? oneMarket.accepted_per_s ?? 4);
      await phaseDone(oneMarket);
      await phaseDone(await runBaseline(service.api, observer, traders, one, round));
      await phaseDone(await runClosed(service.api, observer, traders, [one], SINGLES, 1, 'singles (1 order/request, concurrent)', round));
      await phaseDone(await runClosed(service.api, observer, traders, ten, ORDERS, BATCH, 'ten markets', round));
    }
    // Latency last, at half the sustained one-market rate: an overload there leaves a backlog
    // that would make every later phase measure the backlog instead.
    // Batched first: the single-order phase is the heavier one (every order its own request), and
    // an overload there would leave a backlog behind it.
    const burst = median(burstRates) ?? 4;
    // The rounds leave thousands of trades settling (bursts above what settlement keeps up with):
    // latency is measured at half load once they are settled, not on top of their backlog.
    // Each latency phase starts once what came before it has settled, so neither measures the
    // other's settlement backlog.
    const watcher = observer;
    const drain = async (what: string): Promise<{ waited_s: number | null; still_settling: number }> => {
      const started = performance.now();
      const unsettled = await watcher.waitSettled(started + SETTLE_WAIT_MS, SETTLE_STALLED_MS);
      const waited = { waited_s: round1((performance.now() - started) / 1000), still_settling: unsettled };
      log(unsettled < 0
        ? `settlement of ${what}: not observable in REST mode, the next phase starts at once`
        : `settlement of ${what}: waited ${waited.waited_s} s, ${unsettled} order(s) still settling${unsettled > 0 ? ` ${JSON.stringify(watcher.unsettledByStatus())}` : ''}`);
      return waited;
    };
    settlementDrain = await drain('the rounds');
    if (HEARTBEAT) {
      const wallets = await heartbeatWallets(secrets.AUTH_JWT_SECRET, HEARTBEAT_WALLETS);
      const without: number[] = [];
      const withBeats: number[] = [];
      const beats: HeartbeatStats[] = [];
      const disarms: HeartbeatStats[] = [];
      const armSeconds: (number | null)[] = [];
      // Alternated so a shared machine's drift hits both alike; each run starts with settlement idle.
      for (const [i, beating] of [false, true, true, false].entries()) {
        await drain(`the ${i === 0 ? 'previous phases' : 'previous heartbeat-load run'}`);
        const load = beating ? startHeartbeats(service.api, wallets, HEARTBEAT_TIMEOUT_S) : undefined;
        if (load) {
          // Arming is a workflow start per wallet, once per session of a market maker: measured on
          // its own, before the steady beats that the matching run is compared under.
          const seconds = await load.allArmed(HEARTBEAT_ARM_WAIT_MS);
          armSeconds.push(seconds);
          log(`  ${HEARTBEAT_WALLETS} switches armed ${seconds === null ? `not all within ${HEARTBEAT_ARM_WAIT_MS / 1000} s` : `in ${seconds} s`}`);
          await new Promise((r) => setTimeout(r, HEARTBEAT_WARMUP_MS));
        }
        const label = beating ? `one market, ${HEARTBEAT_WALLETS} wallets beating` : 'one market, no heartbeats';
        const runs: PhaseResult[] = [];
        try {
          // Bursts like the rounds', each after the previous one's settlement: matching is measured, not the settlement of earlier orders beside it.
          for (let k = 0; k < HEARTBEAT_BURSTS; k += 1) {
            if (k > 0) await drain('the previous burst');
            const phase = await runClosed(service.api, observer, traders, [one], HEARTBEAT_ORDERS, BATCH, label, i * HEARTBEAT_BURSTS + k + 1);
            runs.push(phase);
            // A run that matched nothing within its bound counts as 0/s, not as a missing run.
            (beating ? withBeats : without).push(phase.matched_per_s ?? 0);
          }
        } finally {
          if (load) {
            const stats = await load.stop();
            beats.push(stats);
            log(`  heartbeats: ${stats.ok}/${stats.sent} answered 200 at ${String(stats.beats_per_s)}/s, ${stats.skipped} skipped (in-flight bound), p50 ${String(stats.p50_ms)} ms p99 ${String(stats.p99_ms)} ms` +
              `${stats.error_samples.length ? ` errors: ${stats.error_samples.join(' | ')}` : ''}`);
            const disarm = await disarmAll(service.api, wallets);
            disarms.push(disarm);
            log(`  disarmed: ${disarm.ok}/${disarm.wallets} in ${String(disarm.seconds)} s${disarm.failed ? `, ${disarm.failed} failed` : ''}`);
          }
        }
        for (const phase of runs) await phaseDone(phase);
      }
      const withoutRate = round1(median(without));
      const withRate = round1(median(withBeats));
      heartbeatLoad = {
        wallets: HEARTBEAT_WALLETS,
        beat_interval_s: 1,
        timeout_s: HEARTBEAT_TIMEOUT_S,
        orders_per_run: HEARTBEAT_ORDERS,
        bursts_per_run: HEARTBEAT_BURSTS,
        matched_per_s_without: withoutRate,
        matched_per_s_with: withRate,
        ratio: withoutRate && withRate !== null ? Math.round((withRate / withoutRate) * 1000) / 1000 : null,
        runs_without: without,
        runs_with: withBeats,
        arm_all_s: armSeconds,
        heartbeats: beats,
        disarms,
      };
      log(`heartbeat load: ${String(withRate)} matched/s with ${HEARTBEAT_WALLETS} wallets beating, ${String(withoutRate)} without (ratio ${String(heartbeatLoad.ratio)})`);
      await drain('the heartbeat-load runs');
    }
    sustainedPhase = await runSustained(service.api, observer, traders, one);
    phases.push(sustainedPhase);
    const sustained = (sustainedPhase.settled_per_s as number | null) ?? burst;
    idle = await idleWindow();
    if (BATCH > 1) {
      latencyBatched = await runLatency(sustained, BATCH);
      settlementDrainBetween = await drain('the batched latency phase');
    }
    latency = await runLatency(sustained, 1);
    // Half the burst's matched rate, which is above what settlement keeps up with: it shows how
    // the service degrades past its sustained rate; last, since it leaves a backlog.
    // (Each latency phase has already waited for its own settlement: no drain needed before it.)
    if (process.env.E2E_HALF_BURST !== '0') {
      latencyHalfBurst = await runLatency(burst, 1, 'half the burst rate', true);
    }

  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    const cause = error instanceof Error && error.cause ? ` (cause: ${String(error.cause)})` : '';
    notes.push(`run aborted: ${message.slice(0, 2000)}${cause}`);
    log(`ABORTED: ${error instanceof Error ? error.stack : message}${cause}`);
    if (service) log(`service output (tail):\n${service.output().slice(-4000)}`);
  } finally {
    observer?.close();
    if (service) {
      const code = await service.stop();
      log(`service stopped (exit ${code})`);
    }
  }

  const med = (phase: string, key: 'matched_per_s' | 'accepted_per_s') => round1(median(phases.filter((p) => p.phase === phase && p[key] !== null).map((p) => p[key]!)));
  const result = {
    benchmark: 'e2e',
    started_at: startedAt,
    duration_s: round1((performance.now() - t0) / 1000),
    orders_per_s_one_market: med('one market', 'matched_per_s'),
    orders_per_s_ten_markets: med('ten markets', 'matched_per_s'),
    baseline_orders_per_s: med('baseline (1 order/request, sequential)', 'matched_per_s'),
    sustained_orders_per_s_one_market: (sustainedPhase?.settled_per_s as number | null | undefined) ?? null,
    p50_ms: (latency?.p50_ms as number | null | undefined) ?? null,
    p99_ms: (latency?.p99_ms as number | null | undefined) ?? null,
    latency_rate: (latency?.target_orders_per_s as number | null | undefined) ?? null,
    cpu_ms_per_order_single: cpuOf(latency)?.total ?? null,
    cpu_ms_per_order_batched: cpuOf(latencyBatched)?.total ?? null,
    cpu_ms_per_order_by_process: { single: cpuOf(latency)?.by_process ?? null, batched: cpuOf(latencyBatched)?.by_process ?? null },
    cost_model: { single: latency?.cost ?? null, batched: latencyBatched?.cost ?? null, idle },
    heartbeat_load_ratio: (heartbeatLoad?.ratio as number | null | undefined) ?? null,
    orders_per_s_one_market_heartbeats: (heartbeatLoad?.matched_per_s_with as number | null | undefined) ?? null,
    orders_per_s_one_market_no_heartbeats: (heartbeatLoad?.matched_per_s_without as number | null | undefined) ?? null,
    accepted_per_s_one_market: med('one market', 'accepted_per_s'),
    accepted_per_s_ten_markets: med('ten markets', 'accepted_per_s'),
    singles_concurrent_orders_per_s: med('singles (1 order/request, concurrent)', 'matched_per_s'),
    baseline_accepted_per_s: med('baseline (1 order/request, sequential)', 'accepted_per_s'),
    rates_are: 'medians over rounds; matched/s = orders seen matched / (last matched - first POST)',
    targets: { orders_per_s_one_market: 500, p99_ms_at_half_load: 250, heartbeat_load_ratio: 0.9 },
    matched_observed_via: matchedVia,
    sustained_means: 'orders settled on chain per second while a one-market closed loop of E2E_SUSTAINED_ORDERS keeps matching and settlement busy together: orders / (last settled - first POST)',
    cost_means: 'cpu_ms_per_order_*: CPU-ms of the service\'s processes (API, worker, Temporal, FerretDB, the supervisor with the chain; not the bench, not the demo bots) over a latency phase (first POST to last order matched, settlement running alongside) per order it matched; single = 1 order/request at latency_rate, batched = the same rate in requests of `batch` orders. cost_model: counts over the same windows per matched order (bench/e2e/cost.ts, docs/benchmarks.md "Cost per order"); idle: the service without bench load',
    latency_means: 'p50_ms and p99_ms: single-order requests (every order its own POST) at half the sustained one-market rate; latency_batched: the same rate in requests of `batch` orders, as the throughput phases send; latency_half_burst: single-order requests at half the median one-market matched rate, above what settlement keeps up with',
    heartbeat_load_means: 'matched/s of the one-market closed loop (E2E_HEARTBEAT_ORDERS orders) while E2E_HEARTBEAT_WALLETS wallets each POST /v1/heartbeat once a second, over the same run without them; runs alternated without, with, with, without, medians',
    heartbeat_load: heartbeatLoad,
    latency,
    latency_batched: latencyBatched,
    latency_half_burst: latencyHalfBurst,
    sustained: sustainedPhase,
    settlement_drain_before_latency: settlementDrain,
    settlement_drain_between_latency_phases: settlementDrainBetween,
    context: {
      rounds: ROUNDS, orders_per_round: ORDERS, clients: CLIENTS, batch: BATCH, singles_orders: SINGLES, baseline_orders: BASELINE,
      latency_seconds: LAT_SECONDS, order_size_shares: 1, cpus: os.cpus().length, load_avg_before: loadBefore, load_avg_after: load(),
      // The bench and the supervisor (with the embedded chain) run on this Node; the API and the worker on service_node.
      node: process.version,
      service_node: service?.nodeVersion ?? null,
      env_overrides: Object.fromEntries(Object.entries(process.env).filter(([k]) => k.startsWith('E2E_'))),
      baseline_means: 'one POST of one order at a time on one market; the POST awaits its signalWithStart, so every order is its own signal (the matcher client has no option to switch coalescing off)',
    },
    phases,
    notes,
  };
  fs.mkdirSync(path.dirname(RESULT_FILE), { recursive: true });
  fs.writeFileSync(RESULT_FILE, `${JSON.stringify(result, null, 2)}\n`);
  printTable(result, phases);
  printCostTable(result.cost_model, result.cpu_ms_per_order_by_process, result.latency_rate);
  log(`wrote ${path.relative(ROOT, RESULT_FILE)}`);
}

/** The CPU-ms per order of a latency phase's figures, or null. */
function cpuOf(figures: Record<string, unknown> | null): ReturnType<typeof cpuPerOrder> {
  return (figures?.cpu_ms_per_order as ReturnType<typeof cpuPerOrder> | undefined) ?? null;
}

/** "p50 / p99" of a latency figure set, or null. */
function pair(figures: unknown): string {
  const f = figures as { p50_ms?: number; p99_ms?: number } | null;
  return `${String(f?.p50_ms ?? null)} / ${String(f?.p99_ms ?? null)}`;
}

function printTable(result: Record<string, unknown>, phases: PhaseResult[]): void {
  const rows: [string, string][] = [
    ['one market, matched orders/s (median)', String(result.orders_per_s_one_market)],
    ['one market, accepted orders/s (median)', String(result.accepted_per_s_one_market)],
    ['ten markets, matched orders/s (median)', String(result.orders_per_s_ten_markets)],
    ['ten markets, accepted orders/s (median)', String(result.accepted_per_s_ten_markets)],
    ['singles, 1 order/request concurrent, matched/s', String(result.singles_concurrent_orders_per_s)],
    ['baseline, 1 order/request sequential, matched/s', String(result.baseline_orders_per_s)],
    ['one market matched/s: no heartbeats / heartbeats', `${String(result.orders_per_s_one_market_no_heartbeats)} / ${String(result.orders_per_s_one_market_heartbeats)}`],
    ['heartbeat load ratio (target >= 0.9)', String(result.heartbeat_load_ratio)],
    ['one market, sustained (settled on chain) orders/s', String(result.sustained_orders_per_s_one_market)],
    ['latency phases rate, orders/s (E2E_LAT_RATE)', String(result.latency_rate)],
    ['CPU-ms per order, single / batched requests', `${String(result.cpu_ms_per_order_single)} / ${String(result.cpu_ms_per_order_batched)}`],
    ['latency POST->matched p50 ms (half sustained load)', String(result.p50_ms)],
    ['latency POST->matched p99 ms (half sustained load)', String(result.p99_ms)],
    ['  same load in batched requests: p50 / p99 ms', pair(result.latency_batched)],
    ['  half the burst rate, 1 order/request: p50 / p99 ms', pair(result.latency_half_burst)],
    ['matched observed via', String(result.matched_observed_via)],
  ];
  const width = Math.max(...rows.map((r) => r[0].length));
  process.stdout.write('\n');
  for (const [k, v] of rows) process.stdout.write(`${k.padEnd(width)}  ${v}\n`);
  process.stdout.write('\nphase                                   round  orders  accepted  acc/s    matched  match/s  POST p50  POST p99  load  cores\n');
  for (const p of phases) {
    process.stdout.write(
      `${p.phase.padEnd(40)}${String(p.round).padStart(5)}${String(p.orders).padStart(8)}${String(p.accepted).padStart(10)}${String(p.accepted_per_s).padStart(7)}` +
      `${String(p.matched).padStart(11)}${String(p.matched_per_s).padStart(9)}${String(p.post_p50_ms).padStart(10)}${String(p.post_p99_ms).padStart(10)}${String(p.load_avg_1m).padStart(6)}` +
      `${String(p.cpu_cores ?? '?').padStart(7)}\n`,
    );
  }
  process.stdout.write('\n');
}

main().catch((error: unknown) => {
  process.stderr.write(`${error instanceof Error ? error.stack : String(error)}\n`);
  process.exit(1);
});
