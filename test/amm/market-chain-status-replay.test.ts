/**
 * Replays the recorded chain-status history of a resolution (recorded by
 * amm-market-operations.test.ts with RECORD_HISTORIES=1) against the current workflow code: a
 * change that breaks determinism fails here before it can break a pass in flight.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { temporal } from '@temporalio/proto';
import { bundleWorkflowCode, Worker } from '@temporalio/worker';

it('when the recorded resolution pass is replayed, then the current code makes the same decisions', async () => {
  const bundle = await bundleWorkflowCode({ workflowsPath: require.resolve('../../workflows') });
  const history = temporal.api.history.v1.History.fromObject(JSON.parse(readFileSync(join(__dirname, 'histories', 'market-chain-status.json'), 'utf8')));
  const { EventType } = temporal.api.enums.v1;
  const scheduled = history.events!.filter((e) => e.eventType === EventType.EVENT_TYPE_ACTIVITY_TASK_SCHEDULED);
  expect(scheduled.map((e) => e.activityTaskScheduledEventAttributes?.activityType?.name)).toEqual(['applyMarketChainStatus']);
  expect(history.events!.some((e) => e.eventType === EventType.EVENT_TYPE_WORKFLOW_EXECUTION_SIGNALED)).toBe(true);
  await Worker.runReplayHistory({ workflowBundle: bundle }, history, 'market-chain-status');
});
