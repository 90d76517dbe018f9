import type { Logger } from '../logging/logger';

/**
 * Runs `cleanup` once on SIGINT/SIGTERM, then exits. A second signal exits at once, so an
 * operator is never stuck behind a hung shutdown.
 */
export function onShutdown(logger: Logger, cleanup: () => Promise<void>): void {
  let stopping = false;
  const handler = (signal: NodeJS.Signals) => {
    if (stopping) process.exit(1);
    stopping = true;
    logger.info({ signal }, 'shutting down');
    cleanup().then(
      () => process.exit(0),
      (error: unknown) => {
        logger.error({ err: error }, 'shutdown failed');
        process.exit(1);
      },
    );
  };
  process.once('SIGINT', handler);
  process.once('SIGTERM', handler);
}
