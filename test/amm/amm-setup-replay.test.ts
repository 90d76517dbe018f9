/**
 * Replays the recorded AMM setup history (recorded by amm-market-setup.test.ts with
 * RECORD_HISTORIES=1) against the current workflow code: a change that breaks determinism fails
 * here before it can break a setup in flight.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { temporal } from '@temporalio/proto';
import { Worker } from '@temporalio/worker';
import { testWorkflowBundle } from '../helpers/workflow-bundle';

it('when the recorded AMM setup is replayed, then the current code makes the same decisions', async () => {
  const bundle = await testWorkflowBundle();
  const history = temporal.api.history.v1.History.fromObject(JSON.parse(readFileSync(join(__dirname, 'histories', 'amm-setup.json'), 'utf8')));
  const scheduled = history.events!.filter((e) => e.eventType === temporal.api.enums.v1.EventType.EVENT_TYPE_ACTIVITY_TASK_SCHEDULED);
  expect(scheduled.map((e) => e.activityTaskScheduledEventAttributes?.activityType?.name)).toEqual(['deployAmmPool', 'fundAmmPool', 'openAmmMarket']);
  await Worker.runReplayHistory({ workflowBundle: bundle }, history, 'amm-setup');
});
