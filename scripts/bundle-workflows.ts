// Part of `npm run build`: bundles the compiled workflows (dist/workflows) once, for the worker to
// load at start instead of running webpack itself (src/temporal/workflow-bundle.ts).
import { join } from 'node:path';
import { WORKFLOW_BUNDLE_FILE, writeWorkflowBundle } from '../src/temporal/workflow-bundle';

async function main(): Promise<void> {
  const dist = join(__dirname, '..', 'dist');
  const inputs = await writeWorkflowBundle(join(dist, 'workflows', 'index.js'), join(dist, WORKFLOW_BUNDLE_FILE));
  process.stdout.write(`wrote dist/${WORKFLOW_BUNDLE_FILE} (${inputs} input files checked at worker start)\n`);
}

main().catch((error: unknown) => {
  process.stderr.write(`bundling the workflows failed: ${error instanceof Error ? error.stack : String(error)}\n`);
  process.exit(1);
});
