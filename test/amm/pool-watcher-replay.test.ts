/**
 * Replays the recorded pool watcher history (recorded by pool-watcher.test.ts with
 * RECORD_HISTORIES=1: scans, a worker restart, the scans after it) against the current workflow
 * code: a change that breaks determinism fails here before it can break a running watcher.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { temporal } from '@temporalio/proto';
import { Worker } from '@temporalio/worker';
import { testWorkflowBundle } from '../helpers/workflow-bundle';

it('when the recorded pool watcher is replayed, then the current code makes the same decisions', async () => {
  const bundle = await testWorkflowBundle();
  const history = temporal.api.history.v1.History.fromObject(JSON.parse(readFileSync(join(__dirname, 'histories', 'pool-watcher.json'), 'utf8')));
  const scheduled = history.events!.filter((e) => e.eventType === temporal.api.enums.v1.EventType.EVENT_TYPE_ACTIVITY_TASK_SCHEDULED);
  expect(scheduled.length).toBeGreaterThan(2);
  expect(new Set(scheduled.map((e) => e.activityTaskScheduledEventAttributes?.activityType?.name))).toEqual(new Set(['watchPool']));
  await Worker.runReplayHistory({ workflowBundle: bundle }, history, 'pool-watcher');
});
