import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startTestServices } from './test-services';

/**
 * Starts the real servers once per jest run: the Temporal CLI dev server (in memory) and FerretDB
 * (SQLite in a temp folder), on free ports. Test files find them through these variables, which
 * jest's test processes inherit. TEMPORAL_ADDRESS / MONGODB_URI point the tests at existing servers.
 * TEST_SERVICES=none skips both (pure unit runs).
 */
export default async function globalSetup(): Promise<void> {
  // Where the run's files share one workflow bundle (test/helpers/workflow-bundle.ts).
  process.env.PREDEX_TEST_BUNDLE_DIR ??= mkdtempSync(join(tmpdir(), 'predex-bundle-'));
  if (process.env.TEST_SERVICES === 'none') return;
  const workDir = mkdtempSync(join(tmpdir(), 'predex-test-'));
  const services = await startTestServices(workDir);
  process.env.TEST_TEMPORAL_ADDRESS = services.temporalAddress;
  process.env.TEST_MONGODB_URI = services.mongoUri;
  (globalThis as { __predexServices?: unknown }).__predexServices = services;
  // An interrupted run (Ctrl-C, CI timeout) still stops the servers: 'exit' hooks kill them.
  for (const signal of ['SIGINT', 'SIGTERM'] as const) process.once(signal, () => process.exit(130));
}
