import { HEX32, marketSchema } from '../markets/market.schemas';
import { PAGE_QUERY_PROPERTIES, pageSchema } from '../http/pagination';
import type { QuerySchema } from '../http/query';
import { compileSchema } from '../validation/ajv';
import type { CreateMarketInput } from '../markets/create-market';

const translated = {
  type: 'object',
  additionalProperties: false,
  required: ['en'],
  properties: { en: { type: 'string', minLength: 1, maxLength: 10_000 }, cn: { type: 'string', minLength: 1, maxLength: 10_000 } },
} as const;

export const createMarketBodySchema = {
  type: 'object',
  additionalProperties: false,
  required: ['question', 'end_date'],
  properties: {
    question: { type: 'string', minLength: 3, maxLength: 500 },
    end_date: { type: 'string', format: 'date-time' },
    chain_id: { type: 'integer', minimum: 1, description: 'Default: the service chain (56)' },
    kind: { type: 'string', enum: ['CLOB', 'AMM'], default: 'CLOB' },
    status: { type: 'string', enum: ['OPEN', 'PAUSED', 'SEEDING', 'CLOSED'], default: 'OPEN' },
    fee_rate_bps: { type: 'integer', minimum: 0, maximum: 1000, default: 0 },
    summary: translated,
    rules: translated,
    condition_id: { ...HEX32, description: 'An already prepared condition; absent: a new one is prepared on chain' },
    initial_liquidity: {
      type: 'string', pattern: '^[0-9]+(\\.[0-9]+)?$', maxLength: 40,
      description: 'AMM only: collateral the operator funds the pool with (default "1000" on local chains, required elsewhere)',
    },
  },
} as const;

export const setStatusBodySchema = {
  type: 'object',
  additionalProperties: false,
  required: ['status'],
  properties: {
    status: { type: 'string', enum: ['OPEN', 'PAUSED', 'CLOSED', 'RESOLVED'], description: 'reopen = OPEN, pause, close, resolve' },
    resolution_outcome: { type: 'integer', enum: [0, 1], description: 'Required with RESOLVED: 1 = YES, 0 = NO' },
  },
} as const;
export interface SetStatusBody {
  status: 'OPEN' | 'PAUSED' | 'CLOSED' | 'RESOLVED';
  resolution_outcome?: 0 | 1;
}

export const fundBodySchema = {
  type: 'object',
  additionalProperties: false,
  required: ['amount'],
  properties: { amount: { type: 'string', description: 'Collateral to add to the AMM pool, decimal' } },
} as const;

export const adminChainQuerySchema = {
  type: 'object',
  additionalProperties: false,
  properties: { chain_id: { type: 'integer', minimum: 1 } },
} as const satisfies QuerySchema;

export const adminListQuerySchema = {
  type: 'object',
  additionalProperties: false,
  properties: {
    chain_id: { type: 'integer', minimum: 1 },
    status: { type: 'string', enum: ['open', 'closed', 'resolved', 'paused', 'seeding', 'all'], default: 'all' },
    ...PAGE_QUERY_PROPERTIES,
  },
} as const satisfies QuerySchema;
export interface AdminListQuery {
  chain_id?: number;
  status: 'open' | 'closed' | 'resolved' | 'paused' | 'seeding' | 'all';
  cursor?: string;
  limit: number;
}

export const adminMarketSchema = {
  ...marketSchema,
  required: [...marketSchema.required, 'kind', 'resolution_outcome', 'question_id'],
  properties: {
    ...marketSchema.properties,
    kind: { type: 'string', enum: ['CLOB', 'AMM'] },
    resolution_outcome: { type: ['integer', 'null'], enum: [0, 1, null] },
    question_id: { type: ['string', 'null'] },
  },
} as const;
export const adminMarketPageSchema = pageSchema(adminMarketSchema);

export const validateCreateMarketBody = compileSchema<CreateMarketInput>(createMarketBodySchema);
export const validateSetStatusBody = compileSchema<SetStatusBody>(setStatusBodySchema);
export const validateFundBody = compileSchema<{ amount: string }>(fundBodySchema);
export const validateAdminChainQuery = compileSchema<{ chain_id?: number }>(adminChainQuerySchema);
export const validateAdminListQuery = compileSchema<AdminListQuery>(adminListQuerySchema);
