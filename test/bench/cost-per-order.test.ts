import { costPerOrder, cpuPerOrder, type CostCounts } from '../../bench/e2e/cost';
import { parsePrometheus, sumBy } from '../../bench/e2e/prometheus-text';

const TEXT = `# HELP predex_store_command_duration_seconds Database command latency
# TYPE predex_store_command_duration_seconds histogram
predex_store_command_duration_seconds_count{command="insert",collection="orders",outcome="ok"} 7
predex_store_command_duration_seconds_count{command="insert",collection="orders",outcome="failed"} 1
predex_store_command_duration_seconds_count{command="insert",collection="fills",outcome="ok"} 2
predex_store_command_duration_seconds_count{command="find",collection="orders",outcome="ok"} 3
predex_store_command_duration_seconds_sum{command="find",collection="orders",outcome="ok"} 0.25
service_requests{namespace="default",operation="SignalWithStartWorkflowExecution",service_name="frontend"} 4
service_requests{namespace="default",operation="SignalWithStartWorkflowExecution",service_name="history"} 4
service_requests{namespace="temporal_system",operation="SignalWithStartWorkflowExecution",service_name="frontend"} 9
`;

describe('bench cost counting', () => {
  it('adds up a counter by one label over the samples that match', () => {
    const samples = parsePrometheus(TEXT, (name) => name.endsWith('_count') || name === 'service_requests');
    expect(sumBy(samples, 'predex_store_command_duration_seconds_count', 'command')).toEqual(new Map([['insert', 10], ['find', 3]]));
    expect(sumBy(samples, 'predex_store_command_duration_seconds_count', ['collection', 'command'])).toEqual(new Map([['orders insert', 8], ['fills insert', 2], ['orders find', 3]]));
    expect(sumBy(samples, 'service_requests', 'operation', { namespace: 'default', service_name: 'frontend' })).toEqual(new Map([['SignalWithStartWorkflowExecution', 4]]));
    expect(samples.some((s) => s.name.endsWith('_sum'))).toBe(false);
  });

  it('divides the counts by the matched orders and names signals and workflow tasks', () => {
    const counts: CostCounts = {
      seconds: 10,
      store_commands: { api: { 'orders insert': 200, 'fills insert': 100, 'orders find': 100 }, worker: { 'orders update': 50 } },
      store_statements: { api: { 'orders insert': 400 }, worker: { 'orders update': 300, 'order_handoffs delete': 100 } },
      activities: { applyMatchBatch: 20 },
      market_steps: 20,
      worker_sdk: { workflow_tasks: 40, sticky_cache_misses: 0 },
      temporal_requests: { SignalWithStartWorkflowExecution: 150, RespondWorkflowTaskCompleted: 40, PollWorkflowTaskQueue: 41 },
      temporal_persistence: { UpdateWorkflowExecution: 200 },
      history_bytes: 100_000,
      history_appends: 190,
      io: { ferretdb: { sent: 2_000_000, disk: 1_000_000 } },
    };
    const cost = costPerOrder(counts, 200);
    expect(cost.store_commands_per_order).toEqual({
      total: 2.25, api: 2, worker: 0.25,
      api_by_command: { insert: 1.5, find: 0.5 }, worker_by_command: { update: 0.25 },
      api_by_collection: { 'orders insert': 1, 'fills insert': 0.5, 'orders find': 0.5 }, worker_by_collection: { 'orders update': 0.25 },
    });
    expect(cost.store_statements_per_order).toEqual({
      total: 4, api: 2, worker: 2, api_by_collection: { 'orders insert': 2 }, worker_by_collection: { 'orders update': 1.5, 'order_handoffs delete': 0.5 },
    });
    expect(cost.signals_per_order).toBe(0.75);
    expect(cost.workflow_tasks_per_order).toBe(0.2);
    expect(cost.temporal_history_bytes_per_order).toBe(500);
    expect(cost.bytes_per_order).toEqual({ ferretdb: { sent: 10_000, disk: 5_000 } });
  });

  it('leaves the load generators out of the service CPU per order', () => {
    const cpu = cpuPerOrder({ api: 1, worker: 2, temporal: 0.5, bench: 3, bots: 0.1 }, 1000);
    expect(cpu).toEqual({ by_process: { api: 1, worker: 2, temporal: 0.5 }, total: 3.5, load_by_process: { bench: 3, bots: 0.1 } });
  });
});
