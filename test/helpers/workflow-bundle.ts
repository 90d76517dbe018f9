/**
 * The workflows bundled once per jest run instead of once per file: webpack took seconds in every
 * file that starts a worker or replays a history. The first file that asks writes the bundle and its
 * manifest into the run's folder (PREDEX_TEST_BUNDLE_DIR, made by global-setup.ts); a later file
 * uses it only while every input file is unchanged (the worker's own check,
 * src/temporal/workflow-bundle.ts), and bundles again otherwise.
 */
import { mkdtempSync, renameSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { workflowCodeFor, writeWorkflowBundle } from '../../src/temporal/workflow-bundle';

const WORKFLOWS_PATH = require.resolve('../../workflows');
let bundle: Promise<{ codePath: string }> | undefined;

/** What `Worker.create` and the replay calls take as `workflowBundle`. */
export function testWorkflowBundle(): Promise<{ codePath: string }> {
  bundle ??= (async () => {
    const dir = process.env.PREDEX_TEST_BUNDLE_DIR ?? mkdtempSync(join(tmpdir(), 'predex-bundle-'));
    const codePath = join(dir, 'workflow-bundle.js');
    const code = workflowCodeFor(WORKFLOWS_PATH, codePath);
    if (code.prebuilt) return code.workflowBundle;
    // Written under this process's name and renamed: parallel jest workers never read half a file.
    const own = join(dir, `workflow-bundle-${process.pid}.js`);
    await writeWorkflowBundle(WORKFLOWS_PATH, own);
    renameSync(own, codePath);
    renameSync(`${own}.manifest.json`, `${codePath}.manifest.json`);
    return { codePath };
  })();
  return bundle;
}
