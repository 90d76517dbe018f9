/**
 * What an order costs the service, counted over a phase rather than guessed: the store commands
 * the API and the worker send (the driver's command monitoring, `predex_store_command_duration_
 * seconds_count`), the worker's activities and market steps, the Temporal server's requests by
 * operation (signals, workflow and activity task completions), its persistence requests and the
 * history bytes it appends, and the bytes each process wrote (/proc/<pid>/io). Divided by the
 * orders the phase matched in `costPerOrder`.
 */
import { readFileSync } from 'node:fs';
import { LOAD_ROLES, processRoles } from './cpu';
import { parsePrometheus, sumBy, type Sample } from './prometheus-text';

export interface CostSources {
  rootPid: number;
  apiMetrics: string;
  workerMetrics: string;
  /** The Temporal dev server's /metrics, or null when it was not found (its counts are then null). */
  temporalMetrics: string | null;
  /** The service's Temporal namespace: the server's own system workflows are left out. */
  namespace: string;
}

interface Io {
  /** Bytes handed to write-like system calls: sockets and files (`wchar`). */
  sent: number;
  /** Bytes this process caused to be written to storage (`write_bytes`). */
  disk: number;
}

interface Snapshot {
  api: Sample[] | null;
  worker: Sample[] | null;
  temporal: Sample[] | null;
  io: Map<number, { role: string; io: Io }>;
}

/** Counts over a window (after minus before). */
export interface CostCounts {
  seconds: number;
  /** Keyed by "collection command" (e.g. "orders insert"; a command of no collection is " ping"). */
  store_commands: { api: Record<string, number>; worker: Record<string, number> } | null;
  /** Rows written or changed by those commands (inserted documents, update and delete statements), keyed alike. */
  store_statements: { api: Record<string, number>; worker: Record<string, number> } | null;
  activities: Record<string, number> | null;
  market_steps: number | null;
  /** The worker's Temporal SDK: workflow tasks run, sticky cache misses (a task replayed from history). */
  worker_sdk: Record<string, number> | null;
  temporal_requests: Record<string, number> | null;
  temporal_persistence: Record<string, number> | null;
  history_bytes: number | null;
  history_appends: number | null;
  /** Per process role, from /proc (null where /proc/<pid>/io cannot be read). */
  io: Record<string, Io> | null;
}

const KEEP = /^(predex_store_command_duration_seconds_count|predex_store_statements_total|predex_activity_duration_seconds_count|predex_market_steps_total|temporal_workflow_task_execution_latency(_seconds)?_count|temporal_sticky_cache_miss_total|service_requests|persistence_requests|event_blob_size_(sum|count))$/;

async function scrape(url: string | null): Promise<Sample[] | null> {
  if (!url) return null;
  try {
    const res = await fetch(url, { signal: AbortSignal.timeout(5_000) });
    return res.ok ? parsePrometheus(await res.text(), (name) => KEEP.test(name)) : null;
  } catch {
    return null;
  }
}

function readIo(pid: number): Io | null {
  try {
    const fields = Object.fromEntries(readFileSync(`/proc/${pid}/io`, 'utf8').trim().split('\n').map((l) => {
      const [k, v] = l.split(':');
      return [k.trim(), Number(v)];
    }));
    return { sent: fields.wchar, disk: fields.write_bytes };
  } catch {
    return null;
  }
}

async function snapshot(s: CostSources): Promise<Snapshot> {
  const [api, worker, temporal] = await Promise.all([scrape(s.apiMetrics), scrape(s.workerMetrics), scrape(s.temporalMetrics)]);
  const io = new Map<number, { role: string; io: Io }>();
  for (const [pid, role] of processRoles(s.rootPid)) {
    const counters = readIo(pid);
    if (counters) io.set(pid, { role, io: counters });
  }
  return { api, worker, temporal, io };
}

/** after − before of `sumBy`, as an object (keys that did not move left out). */
function delta(before: Sample[], after: Sample[], name: string | RegExp, by: string | string[] = '', where: Record<string, string> = {}): Record<string, number> {
  const then = sumBy(before, name, by, where);
  const out: Record<string, number> = {};
  for (const [k, v] of sumBy(after, name, by, where)) {
    const d = v - (then.get(k) ?? 0);
    if (d !== 0) out[k] = d;
  }
  return out;
}

const STORE_COMMANDS = 'predex_store_command_duration_seconds_count';
const STORE_STATEMENTS = 'predex_store_statements_total';

const total = (r: Record<string, number>): number => Object.values(r).reduce((a, b) => a + b, 0);

export class CostMeter {
  private before: Snapshot | null = null;
  private startedAt = 0;

  constructor(private readonly sources: CostSources) {}

  async start(): Promise<void> {
    this.before = await snapshot(this.sources);
    this.startedAt = performance.now();
  }

  /** Counts since `start` (processes that started or ended in between are left out of `io`). */
  async since(): Promise<CostCounts> {
    const b = this.before;
    if (!b) throw new Error('CostMeter.since before start');
    const a = await snapshot(this.sources);
    const seconds = (performance.now() - this.startedAt) / 1000;
    const both = (pick: (x: Snapshot) => Sample[] | null) => (pick(b) && pick(a) ? [pick(b)!, pick(a)!] as const : null);
    const api = both((x) => x.api);
    const worker = both((x) => x.worker);
    const temporal = both((x) => x.temporal);
    const ns = { namespace: this.sources.namespace };
    const io: Record<string, Io> = {};
    for (const [pid, now] of a.io) {
      const then = b.io.get(pid);
      if (!then) continue;
      const r = (io[now.role] ??= { sent: 0, disk: 0 });
      r.sent += now.io.sent - then.io.sent;
      r.disk += now.io.disk - then.io.disk;
    }
    return {
      seconds,
      store_commands: api && worker
        ? { api: delta(...api, STORE_COMMANDS, ['collection', 'command']), worker: delta(...worker, STORE_COMMANDS, ['collection', 'command']) }
        : null,
      store_statements: api && worker
        ? { api: delta(...api, STORE_STATEMENTS, ['collection', 'command']), worker: delta(...worker, STORE_STATEMENTS, ['collection', 'command']) }
        : null,
      activities: worker ? delta(...worker, 'predex_activity_duration_seconds_count', 'activity') : null,
      market_steps: worker ? total(delta(...worker, 'predex_market_steps_total')) : null,
      worker_sdk: worker
        ? {
          workflow_tasks: total(delta(...worker, /^temporal_workflow_task_execution_latency(_seconds)?_count$/)),
          sticky_cache_misses: total(delta(...worker, 'temporal_sticky_cache_miss_total')),
        }
        : null,
      temporal_requests: temporal ? delta(...temporal, 'service_requests', 'operation', { ...ns, service_name: 'frontend' }) : null,
      temporal_persistence: temporal ? delta(...temporal, 'persistence_requests', 'operation') : null,
      history_bytes: temporal ? total(delta(...temporal, 'event_blob_size_sum', '', ns)) : null,
      history_appends: temporal ? total(delta(...temporal, 'event_blob_size_count', '', ns)) : null,
      io: a.io.size > 0 ? io : null,
    };
  }
}

const r3 = (x: number): number => Math.round(x * 1000) / 1000;
const each = (r: Record<string, number>, n: number): Record<string, number> =>
  Object.fromEntries(Object.entries(r).sort((x, y) => y[1] - x[1]).map(([k, v]) => [k, r3(v / n)]));

/** "collection command" counts added up by command alone. */
function byCommand(r: Record<string, number>): Record<string, number> {
  const out: Record<string, number> = {};
  for (const [key, v] of Object.entries(r)) {
    const command = key.slice(key.lastIndexOf(' ') + 1);
    out[command] = (out[command] ?? 0) + v;
  }
  return out;
}

/** Temporal frontend operations that are a signal, a workflow task's end, an activity task's end. */
const SIGNALS = ['SignalWithStartWorkflowExecution', 'SignalWorkflowExecution'];
const WORKFLOW_TASKS = ['RespondWorkflowTaskCompleted', 'RespondWorkflowTaskFailed'];
const ACTIVITY_TASKS = ['RespondActivityTaskCompleted', 'RespondActivityTaskFailed', 'RespondActivityTaskCanceled'];

/** CPU-ms per order of each service process and their sum; load roles (the bench, the demo bots) apart. */
export function cpuPerOrder(cpuSeconds: Record<string, number> | null, orders: number): { by_process: Record<string, number>; total: number; load_by_process: Record<string, number> } | null {
  if (!cpuSeconds || orders <= 0) return null;
  const by: Record<string, number> = {};
  const load: Record<string, number> = {};
  for (const [role, s] of Object.entries(cpuSeconds)) (LOAD_ROLES.includes(role) ? load : by)[role] = r3((s * 1000) / orders);
  return { by_process: by, total: r3((total(Object.fromEntries(Object.entries(cpuSeconds).filter(([k]) => !LOAD_ROLES.includes(k)))) * 1000) / orders), load_by_process: load };
}

/** The counts of a window per matched order. */
export function costPerOrder(c: CostCounts, orders: number): Record<string, unknown> {
  const n = Math.max(1, orders);
  const ops = c.temporal_requests;
  const sumOps = (names: string[]) => (ops ? r3(names.reduce((a, k) => a + (ops[k] ?? 0), 0) / n) : null);
  const storeApi = c.store_commands?.api ?? null;
  const storeWorker = c.store_commands?.worker ?? null;
  const statementsApi = c.store_statements?.api ?? null;
  const statementsWorker = c.store_statements?.worker ?? null;
  return {
    orders: orders,
    window_s: r3(c.seconds),
    store_commands_per_order: storeApi && storeWorker
      ? {
        total: r3((total(storeApi) + total(storeWorker)) / n),
        api: r3(total(storeApi) / n),
        worker: r3(total(storeWorker) / n),
        api_by_command: each(byCommand(storeApi), n),
        worker_by_command: each(byCommand(storeWorker), n),
        api_by_collection: each(storeApi, n),
        worker_by_collection: each(storeWorker, n),
      }
      : null,
    store_statements_per_order: statementsApi && statementsWorker
      ? {
        total: r3((total(statementsApi) + total(statementsWorker)) / n),
        api: r3(total(statementsApi) / n),
        worker: r3(total(statementsWorker) / n),
        api_by_collection: each(statementsApi, n),
        worker_by_collection: each(statementsWorker, n),
      }
      : null,
    signals_per_order: sumOps(SIGNALS),
    workflow_tasks_per_order: sumOps(WORKFLOW_TASKS),
    activity_tasks_per_order: sumOps(ACTIVITY_TASKS),
    temporal_requests_per_order: ops ? r3(total(ops) / n) : null,
    temporal_requests_by_operation: ops ? each(ops, n) : null,
    temporal_persistence_per_order: c.temporal_persistence ? r3(total(c.temporal_persistence) / n) : null,
    temporal_persistence_by_operation: c.temporal_persistence ? each(c.temporal_persistence, n) : null,
    temporal_history_bytes_per_order: c.history_bytes === null ? null : Math.round(c.history_bytes / n),
    temporal_history_appends_per_order: c.history_appends === null ? null : r3(c.history_appends / n),
    market_steps_per_order: c.market_steps === null ? null : r3(c.market_steps / n),
    activities_per_order: c.activities ? each(c.activities, n) : null,
    worker_sdk_per_order: c.worker_sdk ? each(c.worker_sdk, n) : null,
    bytes_per_order: c.io
      ? Object.fromEntries(Object.entries(c.io).sort().map(([role, io]) => [role, { sent: Math.round(io.sent / n), disk: Math.round(io.disk / n) }]))
      : null,
  };
}
