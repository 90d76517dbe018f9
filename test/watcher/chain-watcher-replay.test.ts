/**
 * Replays recorded histories of the chain watcher (recorded by chain-watcher.test.ts with
 * RECORD_HISTORIES=1) against the current workflow code: a change that breaks determinism fails
 * here before it can break the running watcher.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { temporal } from '@temporalio/proto';
import { Worker } from '@temporalio/worker';
import { testWorkflowBundle } from '../helpers/workflow-bundle';

const dir = join(__dirname, 'histories');
const fixtures = readdirSync(dir).filter((f) => f.endsWith('.json')).sort();

describe('chain watcher replay over recorded histories', () => {
  let bundle: { codePath: string };
  beforeAll(async () => {
    bundle = await testWorkflowBundle();
  });

  test('then a history with removals sent to market workflows is recorded', () => {
    expect(fixtures).toContain('chain-watcher.json');
    const history = temporal.api.history.v1.History.fromObject(JSON.parse(readFileSync(join(dir, 'chain-watcher.json'), 'utf8')));
    const signals = history.events!.filter((e) => e.eventType === temporal.api.enums.v1.EventType.EVENT_TYPE_SIGNAL_EXTERNAL_WORKFLOW_EXECUTION_INITIATED);
    expect(signals.length).toBeGreaterThan(0);
  });

  test.each(fixtures)('when %s is replayed, then the current code makes the same decisions', async (file) => {
    const history = temporal.api.history.v1.History.fromObject(JSON.parse(readFileSync(join(dir, file), 'utf8')));
    expect(history.events?.length).toBeGreaterThan(5);
    await Worker.runReplayHistory({ workflowBundle: bundle }, history, file);
  });
});
