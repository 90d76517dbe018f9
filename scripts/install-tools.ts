// Builds (once) the Go tools the embedded defaults need, and fetches the Node the API and the
// worker run on, into the cache outside the work tree.
import { ENV_SPEC } from '../src/config/env-spec';
import { ensureGoTool } from '../src/tools/ensure-go-tool';
import { ensureServiceNode } from '../src/tools/service-node';
import { FERRETDB, TEMPORAL_CLI } from '../src/tools/tool-versions';

async function main(): Promise<void> {
  const log = (line: string) => process.stdout.write(`[tools] ${line}\n`);
  if (!process.env.TEMPORAL_ADDRESS) log(`temporal: ${await ensureGoTool(TEMPORAL_CLI, log)}`);
  if (!process.env.MONGODB_URI) log(`ferretdb: ${await ensureGoTool(FERRETDB, log)}`);
  if ((process.env.SERVICE_NODE ?? ENV_SPEC.SERVICE_NODE.default) === 'lts') log(`node: ${await ensureServiceNode(log)}`);
}

main().catch((error: unknown) => {
  process.stderr.write(`${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
});
