/**
 * What a socket flood from one address costs everyone else (`npm run bench:flood`): the embedded
 * stack as `npm start` runs it, with its default per-address limits, and the load generator
 * (bench/flood-client.ts) in its own process standing in for another machine. REST latency
 * (`GET /v1/markets/{id}/book`, sequential, keep-alive) is sampled in alternating windows, so that
 * what other processes on the machine do meanwhile weighs on both sides alike:
 *   noise        idle A / idle B: the idle-vs-idle noise band;
 *   resubscribe  1,000 socket.io connections re-subscribing to `book` every 100 ms: paused / running;
 *   handshakes   2,000 bare WebSocket handshakes a second: paused / running.
 * Per side: REST p50 and p99 (the median over the windows of each window's percentile), the API
 * process's CPU (cores), and what the generator achieved.
 *
 * Settings: FLOOD_BENCH_WINDOWS (8 per side), FLOOD_BENCH_WINDOW_MS (2000), FLOOD_BENCH_NICE
 * (the generator's niceness per flood, resubscribe,handshakes: 10,10, so that on a shared machine
 * it takes the cores the API does not want, as another machine would; at 0 its own clients' CPU
 * shows in REST latency), FLOOD_BENCH_RESULT_FILE (bench/results/flood.json).
 */
import http from 'node:http';
import { cpus, loadavg } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { runBench, writeBenchResult } from './bench-output';
import { CpuMeter } from './e2e/cpu';
import { startService, ROOT, type Service } from './e2e/service';
import { createMarkets, devSecrets } from './e2e/setup';
import { median, percentile, round1 } from './e2e/stats';
import { FloodGenerator, type FloodCounts } from './flood-generator';

const WINDOWS = Number(process.env.FLOOD_BENCH_WINDOWS ?? 8);
const WINDOW_MS = Number(process.env.FLOOD_BENCH_WINDOW_MS ?? 2_000);
const [RESUBSCRIBE_NICE, HANDSHAKE_NICE] = (process.env.FLOOD_BENCH_NICE ?? '10,10').split(',').map(Number);
const RESULT_FILE = process.env.FLOOD_BENCH_RESULT_FILE ?? join(ROOT, 'bench', 'results', 'flood.json');

const log = (message: string) => process.stderr.write(`[flood-bench] ${message}\n`);
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const restAgent = new http.Agent({ keepAlive: true, maxSockets: 1 });

/** Sequential REST reads of one market's book for `ms`: each one's latency (a failed one counts as failed). */
async function restWindow(url: string, ms: number): Promise<{ samples: number[]; failed: number }> {
  const samples: number[] = [];
  let failed = 0;
  const until = Date.now() + ms;
  while (Date.now() < until) {
    const started = performance.now();
    const status = await new Promise<number>((resolve) => {
      const req = http.get(url, { agent: restAgent, timeout: 30_000 }, (res) => {
        res.resume();
        res.on('end', () => resolve(res.statusCode ?? 0));
      });
      req.on('error', () => resolve(0));
      req.on('timeout', () => req.destroy());
    });
    if (status === 200) samples.push(performance.now() - started);
    else failed += 1;
    await sleep(5);
  }
  return { samples, failed };
}

interface RestWindow {
  samples: number[];
  failed: number;
  apiCores: number | null;
  generatorCores: number | null;
}

interface Side {
  rest_p50_ms: number | null;
  rest_p99_ms: number | null;
  samples: number;
  failed: number;
  /** CPU over the side's windows, in cores: the API process, and the flood's generator. */
  api_cores: number | null;
  generator_cores: number | null;
}

/** Medians over windows, so one window's burst from another tenant does not move the figure. */
function sideOf(windows: RestWindow[]): Side {
  const mean = (of: (w: RestWindow) => number | null) => {
    const xs = windows.map(of).filter((c): c is number => c !== null);
    return xs.length ? Math.round((xs.reduce((a, b) => a + b, 0) / xs.length) * 100) / 100 : null;
  };
  return {
    rest_p50_ms: round1(median(windows.map((w) => median(w.samples) ?? 0))),
    rest_p99_ms: round1(median(windows.map((w) => percentile(w.samples, 99) ?? 0))),
    samples: windows.reduce((n, w) => n + w.samples.length, 0),
    failed: windows.reduce((n, w) => n + w.failed, 0),
    api_cores: mean((w) => w.apiCores),
    generator_cores: mean((w) => w.generatorCores),
  };
}

interface Phase {
  name: string;
  baseline: Side;
  measured: Side;
  /** measured p99 / baseline p99. */
  p99_ratio: number | null;
  p50_ratio: number | null;
  generator: FloodCounts;
  generator_per_s: Record<string, number>;
}

const ratio = (a: number | null, b: number | null) => (a === null || b === null || b === 0 ? null : Math.round((a / b) * 100) / 100);

/**
 * WINDOWS pairs of windows, A then B (B first in every other pair, so a trend weighs on both);
 * `toA`/`toB` switch the generator between the two.
 */
async function alternate(url: string, toA: () => void, toB: () => void) {
  const a: RestWindow[] = [];
  const b: RestWindow[] = [];
  const meter = new CpuMeter(process.pid);
  let bSeconds = 0;
  const window = async (into: typeof a, switchTo: () => void) => {
    switchTo();
    await sleep(300); // the switch takes effect
    meter.start();
    const started = performance.now();
    const rest = await restWindow(url, WINDOW_MS);
    const seconds = (performance.now() - started) / 1000;
    // Roles by command line (bench/e2e/cpu.ts): the generator is this process's only 'other' child.
    const cpu = meter.since()?.seconds;
    into.push({ ...rest, apiCores: cpu ? (cpu.api ?? 0) / seconds : null, generatorCores: cpu ? (cpu.other ?? 0) / seconds : null });
    return seconds;
  };
  for (let i = 0; i < WINDOWS; i += 1) {
    if (i % 2 === 0) {
      await window(a, toA);
      bSeconds += await window(b, toB);
    } else {
      bSeconds += await window(b, toB);
      await window(a, toA);
    }
  }
  return { baseline: sideOf(a), measured: sideOf(b), bSeconds };
}

/** One flood: ramp, alternate paused and running windows, stop and collect the generator's counts. */
async function floodPhase(name: string, url: string, bookUrl: string, nice: number, start: Record<string, unknown>): Promise<Phase> {
  const generator = new FloodGenerator(nice);
  try {
    await generator.ready();
    generator.send({ type: 'start', url, ...start });
    await sleep(2_000); // the flood ramps up
    const { baseline, measured, bSeconds } = await alternate(bookUrl, () => generator.send({ type: 'pause' }), () => generator.send({ type: 'resume' }));
    const counts = await generator.stop();
    const perS: Record<string, number> = {};
    for (const [what, n] of Object.entries(counts)) perS[what] = Math.round(n / bSeconds);
    return { name, baseline, measured, p99_ratio: ratio(measured.rest_p99_ms, baseline.rest_p99_ms), p50_ratio: ratio(measured.rest_p50_ms, baseline.rest_p50_ms), generator: counts, generator_per_s: perS };
  } finally {
    generator.kill();
  }
}

async function main(): Promise<void> {
  const started = performance.now();
  let service: Service | undefined;
  const phases: Phase[] = [];
  const notes: string[] = [];
  try {
    service = await startService({ logLevel: 'warn' });
    const [market] = await createMarkets(service.api, devSecrets(service.dataDir).ADMIN_TOKEN, 1, 'flood');
    const bookUrl = `${service.api}/v1/markets/${market.condition_id}/book`;
    log(`service and market ready in ${((performance.now() - started) / 1000).toFixed(0)} s`);
    await restWindow(bookUrl, 2_000); // warm the route and the agent
    const noise = await alternate(bookUrl, () => undefined, () => undefined);
    phases.push({ name: 'idle vs idle', ...noise, p99_ratio: ratio(noise.measured.rest_p99_ms, noise.baseline.rest_p99_ms), p50_ratio: ratio(noise.measured.rest_p50_ms, noise.baseline.rest_p50_ms), generator: {}, generator_per_s: {} });
    log(`noise: p99 ${noise.baseline.rest_p99_ms} / ${noise.measured.rest_p99_ms} ms`);
    phases.push(await floodPhase('1,000 connections re-subscribing every 100 ms', service.api, bookUrl, RESUBSCRIBE_NICE, { mode: 'resubscribe', connections: 1_000, condition_id: market.condition_id, everyMs: 100 }));
    log(`resubscribe: p99 ratio ${phases[1].p99_ratio}`);
    await sleep(2_000); // the held connections close
    phases.push(await floodPhase('2,000 handshakes a second', service.api, bookUrl, HANDSHAKE_NICE, { mode: 'handshakes', perSecond: 2_000 }));
    log(`handshakes: p99 ratio ${phases[2].p99_ratio}`);
  } finally {
    const code = await service?.stop();
    if (code !== undefined && code !== 0 && code !== null) notes.push(`service exited with ${code}`);
  }
  const [noise, ...floods] = phases;
  // The noise band: how far two idle sides of one run differ, either way.
  const band = noise?.p99_ratio ? Math.max(noise.p99_ratio, 1 / noise.p99_ratio) : null;
  const result = {
    noise_band_p99_ratio: band === null ? null : Math.round(band * 100) / 100,
    floods: floods.map((f) => ({ name: f.name, p99_ratio: f.p99_ratio, within_noise: band === null || f.p99_ratio === null ? null : f.p99_ratio <= band })),
    phases,
    machine: { cores: cpus().length, load_average_at_end: loadavg().map((x) => Math.round(x * 10) / 10) },
    settings: { windows: WINDOWS, window_ms: WINDOW_MS, nice: { resubscribe: RESUBSCRIBE_NICE, handshakes: HANDSHAKE_NICE } },
    notes,
    run_s: Math.round((performance.now() - started) / 1000),
  };
  console.table(phases.map((p) => ({
    phase: p.name,
    'p50 ms A / B': `${p.baseline.rest_p50_ms} / ${p.measured.rest_p50_ms}`,
    'p99 ms A / B': `${p.baseline.rest_p99_ms} / ${p.measured.rest_p99_ms}`,
    'p99 B/A': p.p99_ratio,
    'API cores A / B': `${p.baseline.api_cores} / ${p.measured.api_cores}`,
    'generator cores B': p.measured.generator_cores,
    'failed': p.baseline.failed + p.measured.failed,
  })));
  for (const f of floods) log(`${f.name}: generator per second ${JSON.stringify(f.generator_per_s)}`);
  writeBenchResult(RESULT_FILE, result);
  log(`written ${RESULT_FILE}`);
}

runBench(main, log);
