import { compileSchema } from '../validation/ajv';
import type { ApiKeyPermission } from '../db/models';

export const KEY_ID = { type: 'string', pattern: '^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$' } as const;
const DATE_TIME = { type: 'string', format: 'date-time' } as const;

export const createApiKeyBodySchema = {
  type: 'object',
  additionalProperties: false,
  properties: {
    permissions: {
      type: 'array',
      minItems: 1,
      maxItems: 2,
      uniqueItems: true,
      items: { type: 'string', enum: ['read', 'trade'] },
      description: 'Default ["read"]',
    },
  },
} as const;
export interface CreateApiKeyBody {
  permissions?: ApiKeyPermission[];
}

export const emptyBodySchema = { type: 'object', additionalProperties: false, properties: {} } as const;

export const keyIdParamSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['key_id'],
  properties: { key_id: KEY_ID },
} as const;

export const issuedApiKeySchema = {
  type: 'object',
  additionalProperties: false,
  required: ['key_id', 'secret'],
  properties: { key_id: KEY_ID, secret: { type: 'string', description: 'Shown once; only a hash is kept' } },
} as const;

export const apiKeyMetadataSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['key_id', 'permissions', 'created_at', 'last_used_at', 'revoked_at'],
  properties: {
    key_id: KEY_ID,
    permissions: { type: 'array', items: { type: 'string', enum: ['read', 'trade'] } },
    created_at: DATE_TIME,
    last_used_at: { type: ['string', 'null'], format: 'date-time', description: 'Updated within a few seconds of use' },
    revoked_at: { type: ['string', 'null'], format: 'date-time' },
  },
} as const;

export const apiKeyListSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['data'],
  properties: { data: { type: 'array', items: apiKeyMetadataSchema } },
} as const;

export const wsTokenSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['token', 'expires_in'],
  properties: { token: { type: 'string' }, expires_in: { type: 'integer', const: 60 } },
} as const;

export const validateCreateApiKeyBody = compileSchema<CreateApiKeyBody>(createApiKeyBodySchema);
export const validateEmptyBody = compileSchema<Record<string, never>>(emptyBodySchema);
export const validateKeyIdParam = compileSchema<{ key_id: string }>(keyIdParamSchema);
