/**
 * Named timeout presets for activities. Market steps retry without a bound: a market must never
 * skip a write, so while MongoDB is down the market waits (and the backlog stays in its queue).
 */
import type { ActivityOptions, LocalActivityOptions } from '@temporalio/workflow';

/** Reads and idempotent bulk writes of one market step. */
export const DB_STEP: ActivityOptions = {
  startToCloseTimeout: '30s',
  retry: { initialInterval: '100ms', backoffCoefficient: 2, maximumInterval: '5s' },
};

/** The same, run as a local activity (in the workflow's worker, recorded as a marker). */
export const DB_STEP_LOCAL: LocalActivityOptions = {
  startToCloseTimeout: '30s',
  retry: { initialInterval: '100ms', backoffCoefficient: 2, maximumInterval: '5s' },
};

/** One chain call (send a transaction, read a receipt); the workflow owns the retry bound. */
export const CHAIN_CALL: ActivityOptions = {
  startToCloseTimeout: '60s',
  retry: { initialInterval: '500ms', backoffCoefficient: 2, maximumInterval: '10s', maximumAttempts: 3 },
};

/** Waiting for confirmations: long, heartbeating. */
export const CHAIN_WAIT: ActivityOptions = {
  startToCloseTimeout: '10m',
  heartbeatTimeout: '30s',
  retry: { initialInterval: '1s', backoffCoefficient: 2, maximumInterval: '30s', maximumAttempts: 5 },
};
