/**
 * Replays recorded histories of every workflow type against the current workflow code: a change
 * that breaks determinism (reordered commands, a new activity in the middle) fails here, before it
 * can break running workflows. Re-record with RECORD_HISTORIES=1 after an intended change
 * (behind `patched()` for workflows already running in production).
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { temporal } from '@temporalio/proto';
import { Worker } from '@temporalio/worker';
import { testWorkflowBundle } from '../helpers/workflow-bundle';

const dir = join(__dirname, 'histories');
const fixtures = readdirSync(dir).filter((f) => f.endsWith('.json')).sort();

describe('workflow replay over recorded histories', () => {
  let bundle: { codePath: string };
  beforeAll(async () => {
    bundle = await testWorkflowBundle();
  });

  test('then every workflow type has at least one recorded history', () => {
    const types = new Set(fixtures.map((f) => f.split('-')[0]));
    expect([...types].sort()).toEqual(['heartbeat', 'market', 'onchain', 'settlement', 'trade']);
  });

  test.each(fixtures)('when %s is replayed, then the current code makes the same decisions', async (file) => {
    // Fixtures are the protobufjs JSON of fetchHistory() (longs and enums as strings, bytes base64).
    const history = temporal.api.history.v1.History.fromObject(JSON.parse(readFileSync(join(dir, file), 'utf8')));
    expect(history.events?.length).toBeGreaterThan(5);
    await Worker.runReplayHistory({ workflowBundle: bundle }, history, file);
  });
});
