import { Router } from 'express';
import { parseQuery } from '../http/query';
import { validateOrThrow } from '../validation/ajv';
import { changeMarketStatus, ChangeMarketStatusDeps } from '../markets/change-market-status';
import { createMarket } from '../markets/create-market';
import { createAmmMarket, type CreateAmmMarketDeps } from '../markets/create-amm-market';
import { validateConditionIdParam } from '../markets/market.schemas';
import { listAdminMarkets, viewOfMarket } from '../markets/market-queries';
import { presentMarket } from '../markets/present-market';
import { operatorOf, requireAdminToken } from './admin-auth';
import {
  adminChainQuerySchema,
  adminListQuerySchema,
  validateAdminChainQuery,
  validateAdminListQuery,
  validateCreateMarketBody,
  validateSetStatusBody,
} from './admin.schemas';

export type AdminRoutesDeps = CreateAmmMarketDeps & ChangeMarketStatusDeps & { adminToken: string };

/**
 * /admin: the operator surface (decisions section 6). Mounted at the root only when ADMIN_TOKEN
 * is set; otherwise /admin/* falls through to the app's 404 NOT_FOUND.
 */
export function adminRoutes(deps: AdminRoutesDeps): Router {
  const router = Router();
  router.use('/admin', requireAdminToken(deps.adminToken));

  router.post('/admin/markets', async (req, res) => {
    parseQuery(adminChainQuerySchema, validateAdminChainQuery, req.query);
    const body = validateOrThrow(validateCreateMarketBody, req.body ?? {}, 'body');
    const input = { ...body, actor: operatorOf(req) };
    const market = body.kind === 'AMM' ? await createAmmMarket(deps, input) : await createMarket(deps, input);
    res.status(201).json(presentMarket(market, null, 'en'));
  });

  router.get('/admin/markets', async (req, res) => {
    const q = parseQuery(adminListQuerySchema, validateAdminListQuery, req.query, { lowerCase: ['status'] });
    res.json(await listAdminMarkets(deps, { chainId: q.chain_id, status: q.status, cursor: q.cursor, limit: q.limit }));
  });

  router.post('/admin/markets/:condition_id/status', async (req, res) => {
    const { condition_id } = validateOrThrow(validateConditionIdParam, req.params, 'path');
    const q = parseQuery(adminChainQuerySchema, validateAdminChainQuery, req.query);
    const body = validateOrThrow(validateSetStatusBody, req.body ?? {}, 'body');
    const market = await changeMarketStatus(deps, {
      chainId: q.chain_id,
      conditionId: condition_id,
      status: body.status,
      resolutionOutcome: body.resolution_outcome,
      actor: operatorOf(req),
    });
    res.json(await viewOfMarket(deps, market, 'en'));
  });

  return router;
}
