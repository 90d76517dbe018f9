import { Router } from 'express';
import { parseQuery } from '../http/query';
import type { OrderContext, OrderEntryDeps } from './context';
import { fillsQuerySchema, validateFillsQuery } from './order.schema';
import { listFills } from './read-fills';
import { walletOf } from './request-wallet';

/**
 * `trade_ids` arrives comma-separated, repeated, or both: one flat list of non-empty ids. The
 * query parser (qs) gives more than 20 repeats as an object keyed 0, 1, ... instead of an array
 * (its `arrayLimit`), whose values are taken in key order.
 */
function normaliseTradeIds(query: unknown): unknown {
  const input = { ...((query ?? {}) as Record<string, unknown>) };
  const raw = input.trade_ids;
  if (raw === undefined) return input;
  const list = Array.isArray(raw) ? raw : raw !== null && typeof raw === 'object' ? Object.values(raw) : [raw];
  const parts = list.flatMap((v) => (typeof v === 'string' ? v.split(',') : [v]));
  input.trade_ids = parts.map((p) => (typeof p === 'string' ? p.trim() : p)).filter((p) => p !== '');
  return input;
}

export function fillsRoutes(ctx: OrderContext, requireL2: OrderEntryDeps['requireL2']): Router {
  const router = Router();
  router.get('/fills', requireL2('read'), async (req, res) => {
    const query = parseQuery(fillsQuerySchema, validateFillsQuery, normaliseTradeIds(req.query));
    res.json(await listFills(ctx, walletOf(req), query));
  });
  return router;
}
