import type { OrderContext } from './context';

export const IDEMPOTENCY_CLEANUP_INTERVAL_MS = 10 * 60 * 1000;

/**
 * Periodic cleanup of expired idempotency keys (no TTL index on FerretDB). Expiry itself is
 * enforced on read by `created_at`; this only keeps the collection small. Returns a stop function.
 */
export function startOrderMaintenance(ctx: OrderContext, intervalMs = IDEMPOTENCY_CLEANUP_INTERVAL_MS): () => void {
  const timer = setInterval(() => {
    ctx.idempotencyStore.deleteExpired().catch((error: unknown) => ctx.logger?.warn({ err: error }, 'idempotency key cleanup failed'));
  }, intervalMs);
  timer.unref();
  return () => clearInterval(timer);
}
