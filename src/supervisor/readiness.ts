import { Client, Connection } from '@temporalio/client';
import { temporal } from '@temporalio/proto';

async function poll(what: string, timeoutMs: number, probe: () => Promise<boolean>): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (await probe().catch(() => false)) return;
    await new Promise((r) => setTimeout(r, 300));
  }
  throw new Error(`${what} was not ready within ${Math.round(timeoutMs / 1000)} s`);
}

/** The API is ready when GET /readyz answers 200 (its own dependencies answer). */
export function waitForApi(url: string, timeoutMs: number): Promise<void> {
  return poll('API', timeoutMs, async () => (await fetch(`${url}/readyz`)).ok);
}

/** The worker is ready when Temporal sees a poller on its task queue. */
export async function waitForWorker(address: string, namespace: string, taskQueue: string, timeoutMs: number): Promise<void> {
  const connection = await Connection.connect({ address });
  try {
    const client = new Client({ connection, namespace });
    await poll('worker', timeoutMs, async () => {
      const answer = await client.workflowService.describeTaskQueue({
        namespace,
        taskQueue: { name: taskQueue },
        taskQueueType: temporal.api.enums.v1.TaskQueueType.TASK_QUEUE_TYPE_WORKFLOW,
      });
      return (answer.pollers?.length ?? 0) > 0;
    });
  } finally {
    await connection.close();
  }
}
