/**
 * Preloaded into the worker process (`node --require .../no-workflow-stack-traces.js`; Node runs a
 * preload in every worker thread too). In the Temporal SDK's workflow threads it keeps the SDK from
 * installing its promise hook, which records a stack trace for every promise workflow code creates,
 * for the UI's "Stack Trace" query. That hook was half the CPU of replaying a market's history (a
 * worker taking a market over replays the whole run in one task, and the market matches nothing
 * meanwhile) and a share of every live step (docs/matching.md, "Workflow stack traces").
 *
 * Without the hook the SDK answers the stack trace query with "Workflow stack traces are not
 * enabled on this worker", the state it is built to run in where promise hooks are missing.
 * `WORKFLOW_STACK_TRACES=true` keeps the hook (debugging a stuck workflow).
 *
 * This reaches into an SDK module that is not public API (`lib/workflow/vm-shared`): the SDK is
 * pinned to an exact version, and test/workflows/workflow-stack-traces.test.ts fails if the patch
 * stops taking effect.
 */
import { isMainThread } from 'node:worker_threads';
import { NO_STACK_TRACES_FLAG } from './workflow-stack-traces';

const WANTED = ['true', '1'].includes(process.env.WORKFLOW_STACK_TRACES ?? '');

// In every thread the preload ran in; the worker's main thread logs it (`workflowStackTraces()`).
(globalThis as Record<symbol, unknown>)[NO_STACK_TRACES_FLAG] = !WANTED;

if (!isMainThread && !WANTED) {
  const shared = require('@temporalio/worker/lib/workflow/vm-shared') as { GlobalHandlers: { prototype: { setPromiseHook(): void } } };
  shared.GlobalHandlers.prototype.setPromiseHook = function setNoPromiseHook(): void {
    // The SDK reads `promiseHookInstalled` (false) to tell workflows that stack traces are off.
  };
}
