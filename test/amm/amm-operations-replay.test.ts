/**
 * Replays the recorded histories of the operator's pool workflows (recorded by
 * amm-market-operations.test.ts with RECORD_HISTORIES=1) against the current workflow code: a
 * change that breaks determinism fails here before it can break a workflow in flight.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { temporal } from '@temporalio/proto';
import { Worker } from '@temporalio/worker';
import { testWorkflowBundle } from '../helpers/workflow-bundle';

const { EventType } = temporal.api.enums.v1;
const cases = [
  // A resolution pass: started by a signal, one pass (payouts reported, pool closed).
  { file: 'market-chain-status.json', activities: ['applyMarketChainStatus'], signalled: true },
  { file: 'amm-funding.json', activities: ['readAmmFunding', 'addAmmFunding', 'recordAmmFunding'], signalled: false },
];

describe('replay of the recorded AMM operations', () => {
  let bundle: { codePath: string };
  beforeAll(async () => {
    bundle = await testWorkflowBundle();
  });

  it.each(cases)('when $file is replayed, then the current code makes the same decisions', async ({ file, activities, signalled }) => {
    const history = temporal.api.history.v1.History.fromObject(JSON.parse(readFileSync(join(__dirname, 'histories', file), 'utf8')));
    const scheduled = history.events!.filter((e) => e.eventType === EventType.EVENT_TYPE_ACTIVITY_TASK_SCHEDULED);
    expect(scheduled.map((e) => e.activityTaskScheduledEventAttributes?.activityType?.name)).toEqual(activities);
    expect(history.events!.some((e) => e.eventType === EventType.EVENT_TYPE_WORKFLOW_EXECUTION_SIGNALED)).toBe(signalled);
    await Worker.runReplayHistory({ workflowBundle: bundle }, history, file);
  });
});
