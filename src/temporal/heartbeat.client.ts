/**
 * Arms, re-arms and disarms a wallet's dead-man switch (workflows/heartbeat.workflow.ts) with one
 * signal: signal-with-start, so the first heartbeat starts the workflow and later ones only reset
 * its timer. One workflow per wallet: `heartbeat-{wallet}`.
 */
import { WorkflowNotFoundError, type Client } from '@temporalio/client';
import type { heartbeatWorkflow } from '../../workflows/heartbeat.workflow';
import { heartbeatSignal } from '../../workflows/definitions';

export interface DeadManSwitch {
  /** `timeoutS` 0 disarms. `expires_at`: when the wallet's orders are pulled unless another heartbeat comes. */
  beat(wallet: string, timeoutS: number): Promise<{ armed: boolean; expires_at: string | null }>;
}

export function heartbeatWorkflowId(wallet: string): string {
  return `heartbeat-${wallet.toLowerCase()}`;
}

export function createDeadManSwitch(client: Client, taskQueue: string, clock: () => Date = () => new Date()): DeadManSwitch {
  return {
    async beat(wallet, timeoutS) {
      const workflowId = heartbeatWorkflowId(wallet);
      if (timeoutS === 0) {
        await client.workflow.getHandle(workflowId).signal(heartbeatSignal, { timeout_s: 0 }).catch((error: unknown) => {
          if (!(error instanceof WorkflowNotFoundError)) throw error;
        });
        return { armed: false, expires_at: null };
      }
      const sentAt = clock().getTime();
      await client.workflow.signalWithStart<typeof heartbeatWorkflow, [{ timeout_s: number }]>('heartbeatWorkflow', {
        workflowId, taskQueue, args: [{ wallet: wallet.toLowerCase() }], signal: heartbeatSignal, signalArgs: [{ timeout_s: timeoutS }],
      });
      return { armed: true, expires_at: new Date(sentAt + timeoutS * 1000).toISOString() };
    },
  };
}
