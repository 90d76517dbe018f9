import { Router } from 'express';
import { noQueryParams } from '../http/query';
import { validateOrThrow } from '../validation/ajv';
import type { ApiKeyService } from './api-keys';
import { AuthGuards, authOf } from './auth.middleware';
import { validateCreateApiKeyBody, validateEmptyBody, validateKeyIdParam } from './auth.schemas';
import { issueWsToken, WsTokenDeps } from './ws-tokens';

export interface AuthRoutesDeps {
  guards: AuthGuards;
  apiKeys: ApiKeyService;
  wsTokens: WsTokenDeps;
}

/** /v1/auth/*: API-key management (L1) and WebSocket tokens (L2). Mounted under /v1. */
export function authRoutes(deps: AuthRoutesDeps): Router {
  const router = Router();
  const { requireL1, requireL2 } = deps.guards;
  const keyIdOf = (params: unknown) => validateOrThrow(validateKeyIdParam, params, 'path').key_id;
  const noBody = (body: unknown) => validateOrThrow(validateEmptyBody, body ?? {}, 'body');

  router.post('/auth/api-keys', requireL1(), noQueryParams, async (req, res) => {
    const body = validateOrThrow(validateCreateApiKeyBody, req.body ?? {}, 'body');
    res.status(201).json(await deps.apiKeys.create(authOf(req).wallet, body.permissions));
  });

  router.get('/auth/api-keys', requireL1(), noQueryParams, async (req, res) => {
    res.json(await deps.apiKeys.list(authOf(req).wallet));
  });

  router.delete('/auth/api-keys/:key_id', requireL1(), noQueryParams, async (req, res) => {
    res.json(await deps.apiKeys.revoke(authOf(req).wallet, keyIdOf(req.params)));
  });

  router.post('/auth/api-keys/:key_id/regenerate', requireL1(), noQueryParams, async (req, res) => {
    noBody(req.body);
    res.json(await deps.apiKeys.regenerate(authOf(req).wallet, keyIdOf(req.params)));
  });

  router.post('/auth/ws-token', requireL2(), noQueryParams, async (req, res) => {
    noBody(req.body);
    const auth = authOf(req);
    const key = auth.keyId && auth.keySecretIssuedAt ? { id: auth.keyId, secretIssuedAt: auth.keySecretIssuedAt } : undefined;
    res.json(await issueWsToken(deps.wsTokens, auth.wallet, key, auth.jwtExpiresAt));
  });

  return router;
}
