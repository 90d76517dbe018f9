/**
 * The signals of a wallet's dead-man switch (workflows/heartbeat.workflow.ts): arm is
 * signal-with-start, so it starts the workflow when none runs; disarm signals a running one. One
 * workflow per wallet, `heartbeat-{wallet}`, on a task queue of their own so that switches never
 * wait behind market steps. Heartbeats themselves go to the store (src/heartbeat/dead-man-switch.ts).
 */
import { WorkflowNotFoundError, type Client } from '@temporalio/client';
import type { SwitchSignals } from '../heartbeat/dead-man-switch';
import type { heartbeatWorkflow } from '../../workflows/heartbeat.workflow';
import { heartbeatSignal } from '../../workflows/definitions';

export function heartbeatWorkflowId(wallet: string): string {
  return `heartbeat-${wallet.toLowerCase()}`;
}

/** The switches' task queue next to the service's own (`{queue}-heartbeat`). */
export function heartbeatTaskQueue(taskQueue: string): string {
  return `${taskQueue}-heartbeat`;
}

export function createSwitchSignals(client: Client, taskQueue: string): SwitchSignals {
  return {
    async arm(wallet, timeoutS) {
      await client.workflow.signalWithStart<typeof heartbeatWorkflow, [{ timeout_s: number }]>('heartbeatWorkflow', {
        workflowId: heartbeatWorkflowId(wallet), taskQueue, args: [{ wallet: wallet.toLowerCase() }], signal: heartbeatSignal, signalArgs: [{ timeout_s: timeoutS }],
      });
    },
    async disarm(wallet) {
      await client.workflow.getHandle(heartbeatWorkflowId(wallet)).signal(heartbeatSignal, { timeout_s: 0 }).catch((error: unknown) => {
        if (!(error instanceof WorkflowNotFoundError)) throw error;
      });
    },
  };
}
