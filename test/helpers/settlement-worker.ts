import { Worker, type NativeConnection } from '@temporalio/worker';
import { settlementTaskQueue } from '../../src/matching/market-ids';

/** The worker of settlement's own task queue (as workers/main.ts runs it), for tests that settle. */
export async function startSettlementWorker(connection: NativeConnection, taskQueue: string, activities: object): Promise<{ worker: Worker; done: Promise<void> }> {
  const worker = await Worker.create({ connection, taskQueue: settlementTaskQueue(taskQueue), activities, shutdownGraceTime: '500ms', maxConcurrentActivityTaskExecutions: 4 });
  return { worker, done: worker.run() };
}
