/**
 * Soak of the embedded stack (docs/benchmarks.md, "Soak").
 *
 *   npm run bench:soak   builds, starts dist/src/supervisor/main.js as bench:e2e does, sends
 *                        SOAK_RATE orders/s (250) for SOAK_MINUTES (10) across ten markets, open
 *                        loop, one order per request, with cancels and GTD expiries mixed in
 *                        (bench/soak/mixed-load.ts), then prints a table and writes bench/results/soak.json
 *
 * Reports: resident memory per process after the warm-up minute and at the end of the load, the
 * POST -> matched p99 per minute, each market workflow's history length at the end, and the verdict
 * on every order (bench/soak/verdict.ts) with every wallet's chain balances against its settled fills.
 * Further knobs: SOAK_WALLETS (20), SOAK_CANCEL_AFTER_S (3), SOAK_EXPIRE_AFTER_S (15),
 * SOAK_SETTLE_WAIT_S (180), SOAK_RESULT_FILE (bench/results/soak.json).
 */
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { Client, Connection } from '@temporalio/client';
import { marketWorkflowId } from '../src/matching/market-ids';
import { DEFAULT_HISTORY_LIMIT } from '../workflows/market/limits';
import { runBench, writeBenchResult } from './bench-output';
import { rssByRole } from './e2e/cpu';
import { newPostStats } from './e2e/load';
import { MatchObserver } from './e2e/observer';
import { ROOT, startService, type Service } from './e2e/service';
import { chainPortFor, createMarkets, devSecrets, E18, fundTraders, type BenchMarket } from './e2e/setup';
import { percentile, round1 } from './e2e/stats';
import { finalRecords, holdings } from './soak/final-state';
import { mixedLoad, presign } from './soak/mixed-load';
import { balanceMismatches, judgeOrders, settledDelta } from './soak/verdict';
import { positiveEnv } from './positive-env';

const MINUTES = positiveEnv('SOAK_MINUTES', 10);
const RATE = positiveEnv('SOAK_RATE', 250);
const WALLETS = Math.max(2, Math.floor(positiveEnv('SOAK_WALLETS', 20) / 2) * 2);
const MARKETS = 10;
const CANCEL_AFTER_MS = positiveEnv('SOAK_CANCEL_AFTER_S', 3) * 1000;
const EXPIRE_AFTER_S = positiveEnv('SOAK_EXPIRE_AFTER_S', 15);
const SETTLE_WAIT_MS = positiveEnv('SOAK_SETTLE_WAIT_S', 180) * 1000;
/** Memory is compared from the end of the first minute (JIT, caches and pools filled) to the end. */
const WARMUP_MS = Math.min(60_000, (MINUTES * 60_000) / 2);
const SAMPLE_EVERY_MS = 10_000;
const RESULT_FILE = process.env.SOAK_RESULT_FILE ? path.resolve(process.env.SOAK_RESULT_FILE) : path.join(ROOT, 'bench', 'results', 'soak.json');

const log = (line: string) => process.stdout.write(`[soak] ${line}\n`);
const load = () => os.loadavg().map((x) => Math.round(x * 100) / 100);

interface MemorySample {
  at_s: number;
  mib: Record<string, number>;
}

async function historyLengths(service: Service, markets: BenchMarket[]): Promise<{ condition_id: string; history_length: number; runs: number | null }[]> {
  const connection = await Connection.connect({ address: service.temporal });
  try {
    const client = new Client({ connection, namespace: 'default' });
    return await Promise.all(markets.map(async (m) => {
      const id = marketWorkflowId(m);
      const described = await client.workflow.getHandle(id).describe();
      let runs: number | null = 0;
      try {
        for await (const run of client.workflow.list({ query: `WorkflowId = '${id}'` })) if (run.workflowId === id) runs += 1;
      } catch {
        runs = null; // visibility not answering: the history length still says what matters
      }
      return { condition_id: m.condition_id, history_length: described.historyLength, runs };
    }));
  } finally {
    await connection.close();
  }
}

async function main(): Promise<void> {
  const startedAt = new Date().toISOString();
  const loadBefore = load();
  log(`starting the service (load average ${loadBefore.join(' ')}, ${os.cpus().length} CPUs); ${MINUTES} min at ${RATE} orders/s`);
  // No demo bots: they trade with dev accounts the soak's wallets include, which would put orders
  // and balance changes the soak did not make into its accounts.
  const service = await startService({ logLevel: process.env.SOAK_LOG_LEVEL ?? 'warn', env: { DEMO_BOTS: 'false' } });
  let observer: MatchObserver | undefined;
  try {
    const secrets = devSecrets(service.dataDir);
    const markets = await createMarkets(service.api, secrets.ADMIN_TOKEN, MARKETS, 'soak');
    const port = chainPortFor(service.dataDir);
    const pairs = Math.ceil((RATE * MINUTES * 60) / 2);
    const traders = await fundTraders(port, service.dataDir, markets, WALLETS, 1_000_000n * E18, BigInt(Math.ceil((2 * pairs) / WALLETS) + 100) * E18);
    const soakObserver = new MatchObserver(service.api, traders, markets.map((m) => m.condition_id));
    observer = soakObserver;
    await soakObserver.connect();
    const before = await holdings(port, traders, markets);
    const signStarted = performance.now();
    const signed = presign(traders, markets, pairs);
    log(`${MARKETS} markets, ${traders.length} wallets funded; ${signed.filter(Boolean).length * 2} orders signed in ${((performance.now() - signStarted) / 1000).toFixed(1)} s`);

    const rootPid = service.child.pid!;
    const samples: MemorySample[] = [];
    const loadStart = performance.now();
    const sample = () => {
      const mib = rssByRole(rootPid);
      if (mib) samples.push({ at_s: Math.round((performance.now() - loadStart) / 1000), mib });
    };
    sample();
    const sampler = setInterval(sample, SAMPLE_EVERY_MS);
    let warm: MemorySample | undefined;
    const warmTimer = setTimeout(() => {
      sample();
      warm = samples.at(-1);
      log(`warm-up done: RSS ${JSON.stringify(warm?.mib)}`);
    }, WARMUP_MS);
    const stats = newPostStats();
    const minuteLog = setInterval(() => log(`${Math.round((performance.now() - loadStart) / 60_000)} min: ${stats.accepted} accepted, ${stats.rejected} rejected, ${stats.httpErrors} unanswered, load ${load()[0]}`), 60_000);
    let run;
    try {
      run = await mixedLoad(service.api, traders, markets, signed, { rate: RATE, durationMs: MINUTES * 60_000, cancelAfterMs: CANCEL_AFTER_MS, expireAfterS: EXPIRE_AFTER_S }, stats, soakObserver);
    } finally {
      clearInterval(sampler);
      clearInterval(minuteLog);
      clearTimeout(warmTimer);
    }
    sample();
    const end = samples.at(-1)!;
    const loadAfterRun = load();
    const loadSeconds = (performance.now() - run.startedAt) / 1000;
    log(`load done: ${run.orders.length} orders in ${loadSeconds.toFixed(0)} s, ${run.lateSends} late sends, ${run.cancelRequests} cancel requests; load ${loadAfterRun.join(' ')}`);

    // Every GTD order past its expiration (the matcher expires once a second), every match settled.
    const expiredBy = (run.lastExpiration + 3) * 1000 - Date.now();
    if (expiredBy > 0) await new Promise((r) => setTimeout(r, expiredBy));
    const stillSettling = await soakObserver.waitSettled(performance.now() + SETTLE_WAIT_MS);
    log(`settlement drained (${stillSettling} still settling)`);

    const histories = await historyLengths(service, markets);
    const { records, fills } = await finalRecords(service.api, traders);
    const verdict = judgeOrders(run.orders, records, [...fills.values()].flat());
    const after = await holdings(port, traders, markets);
    const mismatches = traders.flatMap((t) => {
      const wallet = t.address.toLowerCase();
      return balanceMismatches(wallet, before.get(wallet)!, settledDelta(fills.get(wallet) ?? []), after.get(wallet)!);
    });
    const unsettledFills = [...fills.values()].flat().filter((f) => f.settlement_status !== 'CONFIRMED').length;

    // POST -> matched per minute of the load, crossing orders only (the far ones never match).
    const byMinute: number[][] = Array.from({ length: Math.ceil(MINUTES) }, () => []);
    for (const o of run.orders) {
      if (o.intent !== 'cross') continue;
      const matched = soakObserver.matchedAt.get(o.hash);
      const minute = Math.floor((o.postedAt - run.startedAt) / 60_000);
      if (matched !== undefined && byMinute[minute]) byMinute[minute].push(matched - o.postedAt);
    }
    const p99ByMinute = byMinute.map((l) => round1(percentile(l, 99)));
    const roles = Object.keys(end.mib);
    const memory = Object.fromEntries(roles.map((role) => {
      const start = (warm ?? samples[0]).mib[role] ?? null;
      const last = end.mib[role];
      return [role, { rss_start_mib: start, rss_end_mib: last, growth_pct: start ? round1(((last - start) / start) * 100) : null, rss_max_mib: Math.max(...samples.map((s) => s.mib[role] ?? 0)) }];
    }));
    const growths = Object.values(memory).map((m) => m.growth_pct).filter((g): g is number => g !== null);
    const historyMax = Math.max(...histories.map((h) => h.history_length));
    const byIntent = (intent: string) => run.orders.filter((o) => o.intent === intent).length;

    const result = {
      benchmark: 'soak',
      started_at: startedAt,
      minutes: MINUTES,
      rate: RATE,
      orders: run.orders.length,
      orders_accepted: stats.accepted,
      orders_rejected: stats.rejected,
      orders_unanswered: stats.httpErrors,
      lost_orders: verdict.lost_orders,
      balance_mismatches: mismatches.length,
      max_memory_growth_pct: growths.length ? Math.max(...growths) : null,
      p99_first_minute_ms: p99ByMinute[0],
      p99_last_minute_ms: p99ByMinute.at(-1) ?? null,
      max_history_length: historyMax,
      targets: { max_memory_growth_pct: 10, p99_last_over_first: 1.2, max_history_length: `bounded by continue-as-new (history limit ${DEFAULT_HISTORY_LIMIT} events)`, lost_orders: 0, balance_mismatches: 0 },
      mix: { cross: byIntent('cross'), cancel: byIntent('cancel'), expire: byIntent('expire'), cancel_after_s: CANCEL_AFTER_MS / 1000, expire_after_s: EXPIRE_AFTER_S, wallets: WALLETS, markets: MARKETS },
      achieved_orders_per_s: round1(run.orders.length / loadSeconds),
      late_sends: run.lateSends,
      p99_by_minute_ms: p99ByMinute,
      p50_by_minute_ms: byMinute.map((l) => round1(percentile(l, 50))),
      matched_by_minute: byMinute.map((l) => l.length),
      memory_by_process: memory,
      memory_samples: samples,
      history_by_market: histories,
      verdict,
      still_settling_at_check: stillSettling,
      unsettled_fills: unsettledFills,
      balance_mismatch_samples: mismatches.slice(0, 10),
      cancel_requests: run.cancelRequests,
      cancel_errors: run.cancelErrors,
      error_samples: stats.errorSamples,
      context: { cpus: os.cpus().length, load_avg_before: loadBefore, load_avg_end_of_load: loadAfterRun, load_avg_after: load(), node: process.version, service_node: service.nodeVersion },
    };
    writeBenchResult(RESULT_FILE, result);
    printTable(result, memory);
    log(`wrote ${path.relative(ROOT, RESULT_FILE)}`);
  } finally {
    observer?.close();
    log(`service stopped (exit ${await service.stop()})`);
  }
}

function printTable(result: Record<string, unknown>, memory: Record<string, { rss_start_mib: number | null; rss_end_mib: number; growth_pct: number | null }>): void {
  const rows: [string, unknown][] = [
    ['minutes at orders/s (achieved)', `${String(result.minutes)} at ${String(result.rate)} (${String(result.achieved_orders_per_s)})`],
    ['orders sent / accepted / rejected / unanswered', `${String(result.orders)} / ${String(result.orders_accepted)} / ${String(result.orders_rejected)} / ${String(result.orders_unanswered)}`],
    ['lost orders (target 0)', result.lost_orders],
    ['chain balances disagreeing with fills (target 0)', result.balance_mismatches],
    ['max memory growth % after warm-up (target < 10)', result.max_memory_growth_pct],
    ['POST -> matched p99 ms, first / last minute', `${String(result.p99_first_minute_ms)} / ${String(result.p99_last_minute_ms)}`],
    ['max market workflow history length', result.max_history_length],
  ];
  const width = Math.max(...rows.map((r) => r[0].length));
  process.stdout.write('\n');
  for (const [k, v] of rows) process.stdout.write(`${k.padEnd(width)}  ${String(v)}\n`);
  process.stdout.write('\nprocess                 RSS start MiB  RSS end MiB  growth %\n');
  for (const [role, m] of Object.entries(memory)) {
    process.stdout.write(`${role.padEnd(24)}${String(m.rss_start_mib).padStart(13)}${String(m.rss_end_mib).padStart(13)}${String(m.growth_pct).padStart(10)}\n`);
  }
  process.stdout.write('\n');
}

runBench(main, log);
