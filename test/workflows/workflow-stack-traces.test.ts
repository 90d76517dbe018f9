/**
 * The worker process preloads src/temporal/no-workflow-stack-traces.ts, which keeps the Temporal
 * SDK's stack-trace promise hook out of its workflow threads (half of a replay's CPU). The test
 * runs a worker in a child process with and without the preload, and asks a running workflow for
 * its stack trace: the SDK answers it only where the hook is installed.
 */
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { connectTemporal, type TemporalHandle } from '../../src/temporal/connect';
import { watchOutput } from '../helpers/child-output';
import { testTemporalAddress, uniqueTaskQueue } from '../helpers/test-temporal';

const PRELOAD = join(__dirname, '..', '..', 'src', 'temporal', 'no-workflow-stack-traces.ts');

describe('workflow stack traces in the worker process', () => {
  let temporal: TemporalHandle;
  beforeAll(async () => {
    temporal = await connectTemporal(testTemporalAddress(), 'default');
  });
  afterAll(async () => {
    await temporal.close();
  });

  /** Starts a worker (`preload`: as the service starts it), runs a waiting workflow, asks for its stack trace. */
  async function stackTraceAnswer(preload: boolean, env: NodeJS.ProcessEnv = {}): Promise<{ answer: string; ready: string }> {
    const taskQueue = uniqueTaskQueue('stack-trace');
    // tsx's require hook first, so the TypeScript preload loads (in the workflow threads too).
    const args = ['--require', 'tsx/cjs', ...(preload ? ['--require', PRELOAD] : []), join(__dirname, 'fixtures', 'stack-trace-worker.ts')];
    const child = spawn(process.execPath, args, {
      env: { ...process.env, ...env, STACK_TEMPORAL_ADDRESS: testTemporalAddress(), STACK_TASK_QUEUE: taskQueue },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const output = watchOutput(child, 'the stack trace worker');
    const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
    try {
      await output.printed('READY', 60_000);
      const handle = await temporal.client.workflow.start('waitsForever', { taskQueue, workflowId: `${taskQueue}-wf`, args: [] });
      try {
        const answer = await handle.query<string>('__stack_trace').then(
          (trace) => `trace: ${trace}`,
          (error: unknown) => `refused: ${error instanceof Error ? error.message : String(error)}`,
        );
        return { answer, ready: output.text().split('\n').find((l) => l.startsWith('READY')) ?? '' };
      } finally {
        await handle.terminate('test over');
      }
    } finally {
      child.kill('SIGTERM');
      await exited;
    }
  }

  it('when the worker runs without the preload, then a running workflow answers with its stack trace', async () => {
    const { answer, ready } = await stackTraceAnswer(false);
    expect(ready).toBe('READY stack-traces=on');
    expect(answer).toMatch(/^trace: .*waitsForever/s);
  }, 120_000);

  it('when the worker runs with the preload, then its workflow threads record no stack traces', async () => {
    const { answer, ready } = await stackTraceAnswer(true);
    expect(ready).toBe('READY stack-traces=off');
    expect(answer).toMatch(/^refused: .*stack traces are not enabled/s);
  }, 120_000);

  it('when WORKFLOW_STACK_TRACES=true, then the preload leaves the stack traces on', async () => {
    const { answer, ready } = await stackTraceAnswer(true, { WORKFLOW_STACK_TRACES: 'true' });
    expect(ready).toBe('READY stack-traces=on');
    expect(answer).toMatch(/^trace: .*waitsForever/s);
  }, 120_000);
});
