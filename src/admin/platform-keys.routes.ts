import { Router } from 'express';
import { noQueryParams } from '../http/query';
import { validateOrThrow, compileSchema } from '../validation/ajv';
import type { PlatformKeyService } from '../auth/platform-keys';
import { requireAdminToken } from './admin-auth';

const KEY_ID = { type: 'string', pattern: '^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$' } as const;

export const createPlatformKeyBodySchema = {
  type: 'object',
  additionalProperties: false,
  required: ['name'],
  properties: { name: { type: 'string', pattern: '^\\S(.{0,98}\\S)?$', description: 'Who the key is for, 1..100 characters' } },
} as const;

const validateCreateBody = compileSchema<{ name: string }>(createPlatformKeyBodySchema);
const validateKeyIdParam = compileSchema<{ key_id: string }>({ type: 'object', required: ['key_id'], properties: { key_id: KEY_ID } });

/** /admin/platform-keys: operators issue, list and revoke the partner apps' keys (decisions section 9). */
export function platformKeysRoutes(deps: { adminToken: string; platformKeys: PlatformKeyService }): Router {
  const router = Router();
  router.use('/admin/platform-keys', requireAdminToken(deps.adminToken));

  router.post('/admin/platform-keys', noQueryParams, async (req, res) => {
    const body = validateOrThrow(validateCreateBody, req.body ?? {}, 'body');
    res.status(201).json(await deps.platformKeys.create(body.name));
  });

  router.get('/admin/platform-keys', noQueryParams, async (_req, res) => {
    res.json(await deps.platformKeys.list());
  });

  router.delete('/admin/platform-keys/:key_id', noQueryParams, async (req, res) => {
    const { key_id } = validateOrThrow(validateKeyIdParam, req.params, 'path');
    res.json(await deps.platformKeys.revoke(key_id));
  });

  return router;
}
