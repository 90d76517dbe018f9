import { Router } from 'express';
import { AppError } from '../errors';

/** A dependency the API needs to serve traffic; `check` rejects when it is unreachable. */
export interface ReadinessCheck {
  name: string;
  check(): Promise<void>;
}

const CHECK_TIMEOUT_MS = 2_000;

function withTimeout(promise: Promise<void>, ms: number): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<void>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer within ${ms} ms`)), ms);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

/** `/healthz`: the process is up. `/readyz`: every dependency answers, else 503 SERVICE_DEGRADED. */
export function healthRoutes(checks: ReadinessCheck[]): Router {
  const router = Router();
  router.get('/healthz', (_req, res) => {
    res.json({ status: 'ok' });
  });
  router.get('/readyz', async (_req, res) => {
    const results = await Promise.all(
      checks.map(async (c) => {
        try {
          await withTimeout(c.check(), CHECK_TIMEOUT_MS);
          return { name: c.name, ok: true as const };
        } catch {
          return { name: c.name, ok: false as const };
        }
      }),
    );
    const failing = results.filter((r) => !r.ok).map((r) => r.name);
    if (failing.length > 0) {
      throw new AppError('SERVICE_DEGRADED', `Unavailable: ${failing.join(', ')}`, { failing });
    }
    res.json({ status: 'ready', checks: Object.fromEntries(results.map((r) => [r.name, 'ok'])) });
  });
  return router;
}
