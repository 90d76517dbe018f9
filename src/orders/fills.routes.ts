import { Router } from 'express';
import { parseQuery } from '../api/query';
import type { OrderContext, OrderEntryDeps } from './context';
import { fillsQuerySchema, validateFillsQuery } from './order.schema';
import { listFills } from './read-fills';
import { walletOf } from './request-wallet';

/** `trade_ids` arrives comma-separated, repeated, or both: one flat list of non-empty ids. */
function normaliseTradeIds(query: unknown): unknown {
  const input = { ...((query ?? {}) as Record<string, unknown>) };
  const raw = input.trade_ids;
  if (raw === undefined) return input;
  const parts = (Array.isArray(raw) ? raw : [raw]).flatMap((v) => (typeof v === 'string' ? v.split(',') : [v]));
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
