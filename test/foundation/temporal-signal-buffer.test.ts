/**
 * The embedded Temporal server buffers the signals that reach a workflow while one of its tasks is
 * under way. At the server's default bound (100 events, `history.maximumBufferedEventsBatch`) the
 * 101st signal fails the task under way (cause FORCE_CLOSE_COMMAND) and its work is thrown away: a
 * worker that takes a busy market over replays the whole run in its first task, and the API's
 * hand-offs (tens a second) overflowed the bound during that replay (docs/benchmarks.md,
 * "Numbers behind the design"). The server this project starts buffers more (`SIGNALS_BUFFERED_PER_TASK`).
 *
 * The test plays the worker itself through the raw service API, so nothing but the server decides.
 */
import { randomBytes } from 'node:crypto';
import { temporal as proto } from '@temporalio/proto';
import { SIGNALS_BUFFERED_PER_TASK } from '../../src/embedded/temporal-dev-server';
import { connectTemporal, type TemporalHandle } from '../../src/temporal/connect';
import { testTemporalAddress, uniqueTaskQueue } from '../helpers/test-temporal';

const EventType = proto.api.enums.v1.EventType;

describe('the embedded Temporal server under a stream of signals', () => {
  if (process.env.TEMPORAL_ADDRESS) {
    it.skip('runs only against the embedded server (TEMPORAL_ADDRESS is set)', () => undefined);
    return;
  }
  let temporal: TemporalHandle;
  beforeAll(async () => {
    temporal = await connectTemporal(testTemporalAddress(), 'default');
  });
  afterAll(async () => {
    await temporal.close();
  });

  it('when 250 signals arrive while a workflow task is under way, then the task still completes and no task fails', async () => {
    expect(SIGNALS_BUFFERED_PER_TASK).toBeGreaterThanOrEqual(250);
    const service = temporal.connection.workflowService;
    const namespace = 'default';
    const taskQueue = uniqueTaskQueue('signal-buffer');
    const workflowId = `signal-buffer-${randomBytes(4).toString('hex')}`;
    const handle = await temporal.client.workflow.start('signalBufferProbe', { taskQueue, workflowId, args: [] });

    // A long poll needs a deadline of its own; the task is there already, so it answers at once.
    const task = await temporal.connection.withDeadline(Date.now() + 20_000, () =>
      service.pollWorkflowTaskQueue({ namespace, taskQueue: { name: taskQueue }, identity: 'signal-buffer-test' }),
    );
    expect(task.taskToken?.length).toBeGreaterThan(0);
    for (let i = 0; i < 250; i++) await handle.signal('handOff', i);

    // Completing with no command: a task the server force-closed is gone, and this is refused.
    await service.respondWorkflowTaskCompleted({ namespace, taskToken: task.taskToken, identity: 'signal-buffer-test', commands: [] });

    const history = await handle.fetchHistory();
    const types = (history.events ?? []).map((e) => e.eventType);
    expect(types.filter((t) => t === EventType.EVENT_TYPE_WORKFLOW_TASK_FAILED)).toEqual([]);
    expect(types.filter((t) => t === EventType.EVENT_TYPE_WORKFLOW_TASK_COMPLETED)).toHaveLength(1);
    expect(types.filter((t) => t === EventType.EVENT_TYPE_WORKFLOW_EXECUTION_SIGNALED)).toHaveLength(250);
    await handle.terminate('test over');
  });
});
