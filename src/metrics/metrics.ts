/**
 * Every Prometheus metric the API and the worker export, in one place (docs/operations.md lists
 * them). Labels are bounded: route templates, error codes of the one error table, command names.
 * Each process registers what it uses on the one registry; unused ones export nothing but HELP.
 */
import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';

export const registry = new Registry();
collectDefaultMetrics({ register: registry, prefix: 'predex_' });

/** Seconds buckets from 1 ms to 60 s: order entry lives in the low ones, settlement in the high. */
const SECONDS = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60];

export const httpRequests = new Counter({
  name: 'predex_http_requests_total',
  help: 'HTTP requests answered, by method, route template, status and error code ("" when none)',
  labelNames: ['method', 'route', 'status', 'code'] as const,
  registers: [registry],
});
export const httpDuration = new Histogram({
  name: 'predex_http_request_duration_seconds',
  help: 'HTTP request latency from arrival to the last byte written, by method, route template and status',
  labelNames: ['method', 'route', 'status'] as const,
  buckets: SECONDS,
  registers: [registry],
});
export const ordersPlaced = new Counter({
  name: 'predex_orders_total',
  help: 'Orders answered by POST /v1/order(s): outcome accepted or rejected, with the rejection code',
  labelNames: ['outcome', 'code'] as const,
  registers: [registry],
});
export const marketSteps = new Counter({
  name: 'predex_market_steps_total',
  help: 'Market steps written by the worker (one per matching pass of a market workflow)',
  registers: [registry],
});
export const marketStepOrders = new Histogram({
  name: 'predex_market_step_orders',
  help: 'Orders a market step wrote (placed, matched or ended)',
  buckets: [1, 2, 5, 10, 20, 50, 100, 200, 500, 1000],
  registers: [registry],
});
export const marketStepTrades = new Counter({
  name: 'predex_market_step_trades_total',
  help: 'Trades market steps matched (first writes only)',
  registers: [registry],
});
export const marketStepDuration = new Histogram({
  name: 'predex_market_step_duration_seconds',
  help: 'Time to write one market step (fills, orders, book rows, events)',
  buckets: SECONDS,
  registers: [registry],
});
export const postToMatched = new Histogram({
  name: 'predex_order_post_to_matched_seconds',
  help: 'From an order being accepted by POST to its first fill written, per taker fill',
  buckets: SECONDS,
  registers: [registry],
});
export const matchedToSettled = new Histogram({
  name: 'predex_fill_matched_to_settled_seconds',
  help: 'From a fill being matched to its settlement reaching a final status, by status (CONFIRMED, FAILED)',
  labelNames: ['status'] as const,
  buckets: SECONDS,
  registers: [registry],
});
export const settlementRounds = new Counter({
  name: 'predex_settlement_rounds_total',
  help: 'Settlement send rounds, by attempt (first or retry)',
  labelNames: ['attempt'] as const,
  registers: [registry],
});
export const settlementFills = new Counter({
  name: 'predex_settlement_fills_total',
  help: 'Fill settlement status writes, by status (MINED, CONFIRMED, RETRYING, FAILED)',
  labelNames: ['status'] as const,
  registers: [registry],
});
export const gatewayCuts = new Counter({
  name: 'predex_gateway_disconnects_total',
  help: 'Realtime connections the gateway ended itself, by reason (e.g. SLOW_CONSUMER)',
  labelNames: ['reason'] as const,
  registers: [registry],
});
export const chainRequests = new Counter({
  name: 'predex_chain_rpc_requests_total',
  help: 'JSON-RPC HTTP requests to the chain node, by method ("batch" for several) and outcome (ok, http_error, network_error)',
  labelNames: ['method', 'outcome'] as const,
  registers: [registry],
});
export const chainDuration = new Histogram({
  name: 'predex_chain_rpc_duration_seconds',
  help: 'JSON-RPC HTTP request latency to the chain node, by method',
  labelNames: ['method'] as const,
  buckets: SECONDS,
  registers: [registry],
});
export const storeDuration = new Histogram({
  name: 'predex_store_command_duration_seconds',
  help: 'Database command latency, by command name, collection ("" for none) and outcome (ok, failed)',
  labelNames: ['command', 'collection', 'outcome'] as const,
  buckets: SECONDS,
  registers: [registry],
});
export const storeStatements = new Counter({
  name: 'predex_store_statements_total',
  help: 'Documents inserted and update or delete statements sent in database commands, by command name and collection',
  labelNames: ['command', 'collection'] as const,
  registers: [registry],
});
export const activityDuration = new Histogram({
  name: 'predex_activity_duration_seconds',
  help: 'Temporal activity run time in this worker, by activity name and outcome (ok, failed)',
  labelNames: ['activity', 'outcome'] as const,
  buckets: SECONDS,
  registers: [registry],
});

/** Gauges read at scrape time from a source (the gateway's own counters). */
export function gaugeOf(name: string, help: string, read: () => number): Gauge {
  const existing = registry.getSingleMetric(name);
  if (existing) registry.removeSingleMetric(name);
  return new Gauge({ name, help, registers: [registry], collect() { this.set(read()); } });
}

/** Seconds since `start` (a performance.now() reading). */
export const secondsSince = (start: number): number => (performance.now() - start) / 1000;
