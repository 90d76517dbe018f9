import { Router, type RequestHandler } from 'express';
import type { LeanRoute } from '../api/lean-routes';
import type { DeadManSwitch } from '../heartbeat/dead-man-switch';
import { compileSchema, validateOrThrow } from '../validation/ajv';
import type { OrderEntryDeps } from './context';
import { walletOf } from './request-wallet';

/** 0 disarms; otherwise 5..300 seconds (decisions section 11). */
export const heartbeatBodySchema = {
  type: 'object',
  additionalProperties: false,
  required: ['timeout_s'],
  properties: { timeout_s: { type: 'integer', anyOf: [{ const: 0 }, { minimum: 5, maximum: 300 }] } },
} as const;
const validateHeartbeatBody = compileSchema<{ timeout_s: number }>(heartbeatBodySchema);

function heartbeatHandlers(deadManSwitch: DeadManSwitch, requireL2: OrderEntryDeps['requireL2']): RequestHandler[] {
  return [requireL2('trade'), async (req, res) => {
    const { timeout_s } = validateOrThrow(validateHeartbeatBody, req.body, 'body');
    res.json(await deadManSwitch.beat(walletOf(req), timeout_s));
  }];
}

/** POST /v1/heartbeat: the wallet's dead-man switch. */
export function heartbeatRoutes(deadManSwitch: DeadManSwitch, requireL2: OrderEntryDeps['requireL2']): Router {
  const router = Router();
  router.post('/heartbeat', ...heartbeatHandlers(deadManSwitch, requireL2));
  return router;
}

/** The same route on the API server's lean path (src/api/lean-routes.ts): one beat a second per market maker. */
export function heartbeatLeanRoute(deadManSwitch: DeadManSwitch, requireL2: OrderEntryDeps['requireL2']): LeanRoute {
  return { method: 'POST', path: '/v1/heartbeat', handlers: heartbeatHandlers(deadManSwitch, requireL2) };
}
