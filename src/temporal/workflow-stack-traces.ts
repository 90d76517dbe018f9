/**
 * Whether this process's workflow threads record stack traces (src/temporal/no-workflow-stack-traces.ts,
 * a preload, decides it). Side-effect free, so the worker can ask without loading the preload.
 */
export const NO_STACK_TRACES_FLAG = Symbol.for('predex.noWorkflowStackTraces');

/** 'off' when the preload ran and switched them off, 'on' otherwise (no preload, or WORKFLOW_STACK_TRACES=true). */
export function workflowStackTraces(): 'on' | 'off' {
  return (globalThis as Record<symbol, unknown>)[NO_STACK_TRACES_FLAG] === true ? 'off' : 'on';
}
