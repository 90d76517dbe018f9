import { MAX_LIMIT, PAGE_QUERY_PROPERTIES, pageSchema } from '../http/pagination';
import type { QuerySchema } from '../http/query';
import { compileSchema } from '../validation/ajv';

/**
 * The public market-data shapes of api-v1.md, as JSON schemas. The routes validate their input
 * with these, the tests check responses against them, and /v1/openapi.json is built from them.
 */
export const HEX32 = { type: 'string', pattern: '^0x[0-9a-fA-F]{64}$' } as const;
export const ADDRESS = { type: 'string', pattern: '^0x[0-9a-fA-F]{40}$' } as const;
export const DECIMAL = { type: 'string', pattern: '^-?\\d+(\\.\\d+)?$' } as const;
export const UINT_STRING = { type: 'string', pattern: '^\\d{1,78}$' } as const;
const DATE_TIME = { type: 'string', format: 'date-time' } as const;
const NULLABLE_DECIMAL = { type: ['string', 'null'], pattern: '^-?\\d+(\\.\\d+)?$' } as const;

export const tokenSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['outcome', 'outcome_label', 'token_id', 'decimals'],
  properties: {
    outcome: { type: 'integer', enum: [0, 1] },
    outcome_label: { type: 'string', enum: ['NO', 'YES'] },
    token_id: { ...UINT_STRING, description: 'ERC-1155 position id' },
    decimals: { type: 'integer', minimum: 0 },
  },
} as const;

export const embeddedTickerSchema = {
  type: ['object', 'null'],
  additionalProperties: false,
  required: ['bestBid', 'bestAsk', 'lastPrice', 'spread', 'displayPriceYES', 'displayPriceNO'],
  description: 'camelCase numbers; null until the first order or trade fills the cache',
  properties: {
    bestBid: { type: ['number', 'null'] },
    bestAsk: { type: ['number', 'null'] },
    lastPrice: { type: ['number', 'null'] },
    spread: { type: ['number', 'null'] },
    displayPriceYES: { type: ['number', 'null'] },
    displayPriceNO: { type: ['number', 'null'] },
  },
} as const;

export const marketAmmSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['pool_address', 'liquidity', 'fee_rate_bps', 'prices', 'block_number'],
  description: 'AMM markets only: the on-chain pool. prices are null until the pool is deployed and funded (a SEEDING market)',
  properties: {
    pool_address: { type: ['string', 'null'], pattern: '^0x[0-9a-fA-F]{40}$', description: 'null until the pool is deployed' },
    liquidity: { ...DECIMAL, description: 'Collateral the operator has funded the pool with' },
    fee_rate_bps: { type: 'integer', minimum: 0 },
    prices: {
      type: ['array', 'null'], items: DECIMAL, minItems: 2, maxItems: 2,
      description: '[p0, p1] implied by the pool balances, p_i = b_j / (b_0 + b_1), rounded down to 6 decimals',
    },
    block_number: { type: ['string', 'null'], pattern: '^\\d+$', description: 'The block the prices are exact at' },
  },
} as const;

export const marketSchema = {
  type: 'object',
  additionalProperties: false,
  required: [
    'condition_id', 'chain_id', 'question', 'status', 'tokens', 'fee_rate_bps', 'created_at', 'summary', 'rules',
    'collateral_token', 'ctf_exchange_address', 'conditional_tokens_address', 'end_date', 'ticker',
  ],
  properties: {
    condition_id: HEX32,
    chain_id: { type: 'integer' },
    question: { type: 'string' },
    status: { type: 'string', enum: ['OPEN', 'CLOSED', 'RESOLVED', 'PAUSED', 'SEEDING'] },
    tokens: { type: 'array', items: tokenSchema },
    fee_rate_bps: { type: 'integer', minimum: 0 },
    created_at: DATE_TIME,
    summary: { type: 'string', description: 'Translated per X-Language (en, cn; default en)' },
    rules: { type: 'string', description: 'Resolution rules, translated per X-Language' },
    collateral_token: ADDRESS,
    ctf_exchange_address: { ...ADDRESS, description: 'EIP-712 verifyingContract' },
    conditional_tokens_address: ADDRESS,
    end_date: DATE_TIME,
    ticker: embeddedTickerSchema,
    amm: marketAmmSchema,
  },
} as const;

export const marketPageSchema = pageSchema(marketSchema);

export const tokensResponseSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['condition_id', 'chain_id', 'tokens'],
  properties: { condition_id: HEX32, chain_id: { type: 'integer' }, tokens: { type: 'array', items: tokenSchema } },
} as const;

const bookLevelSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['price', 'remainingSize'],
  properties: { price: DECIMAL, remainingSize: DECIMAL },
} as const;

export const bookSnapshotSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['condition_id', 'chain_id', 'timestamp', 'seq', 'bids', 'asks'],
  properties: {
    condition_id: HEX32,
    chain_id: { type: 'integer' },
    timestamp: DATE_TIME,
    seq: { type: 'integer', minimum: 0, description: 'Book sequence number; realtime deltas continue from it' },
    bids: { type: 'array', items: bookLevelSchema, description: 'YES bids, best (highest) first' },
    asks: { type: 'array', items: bookLevelSchema, description: 'YES asks, best (lowest) first' },
  },
} as const;

export const standaloneTickerSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['condition_id', 'chain_id', 'best_bid', 'best_ask', 'last_price', 'spread', 'display_price_yes', 'display_price_no', 'timestamp'],
  properties: {
    condition_id: HEX32,
    chain_id: { type: 'integer' },
    best_bid: NULLABLE_DECIMAL,
    best_ask: NULLABLE_DECIMAL,
    last_price: NULLABLE_DECIMAL,
    spread: NULLABLE_DECIMAL,
    display_price_yes: NULLABLE_DECIMAL,
    display_price_no: NULLABLE_DECIMAL,
    timestamp: DATE_TIME,
  },
} as const;

export const publicTradeSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['trade_id', 'condition_id', 'chain_id', 'price', 'size', 'created_at'],
  properties: {
    trade_id: { type: 'string' },
    condition_id: HEX32,
    chain_id: { type: 'integer' },
    price: DECIMAL,
    size: DECIMAL,
    created_at: DATE_TIME,
  },
} as const;

export const publicTradePageSchema = pageSchema(publicTradeSchema);

// ---- inputs ----

const CHAIN_ID_PARAM = { type: 'integer', minimum: 1, description: 'Chain id, e.g. 56' } as const;

export const listMarketsQuerySchema = {
  type: 'object',
  additionalProperties: false,
  properties: {
    chain_id: CHAIN_ID_PARAM,
    status: { type: 'string', enum: ['open', 'closed', 'resolved', 'paused'], default: 'open', description: 'Case-insensitive' },
    ...PAGE_QUERY_PROPERTIES,
  },
} as const satisfies QuerySchema;
export interface ListMarketsQuery {
  chain_id?: number;
  status: 'open' | 'closed' | 'resolved' | 'paused';
  cursor?: string;
  limit: number;
}

export const marketQuerySchema = {
  type: 'object',
  additionalProperties: false,
  properties: { chain_id: CHAIN_ID_PARAM },
} as const satisfies QuerySchema;
export interface MarketQuery {
  chain_id?: number;
}

export const bookQuerySchema = {
  type: 'object',
  additionalProperties: false,
  properties: {
    chain_id: CHAIN_ID_PARAM,
    depth: { type: 'integer', minimum: 1, maximum: 500, default: 50, description: 'Levels per side, best first' },
  },
} as const satisfies QuerySchema;
export interface BookQuery {
  chain_id?: number;
  depth: number;
}

export const tradesQuerySchema = {
  type: 'object',
  additionalProperties: false,
  properties: { chain_id: CHAIN_ID_PARAM, ...PAGE_QUERY_PROPERTIES },
} as const satisfies QuerySchema;
export interface TradesQuery {
  chain_id?: number;
  cursor?: string;
  limit: number;
}

export const conditionIdParamSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['condition_id'],
  properties: { condition_id: HEX32 },
} as const;

export const validateListMarketsQuery = compileSchema<ListMarketsQuery>(listMarketsQuerySchema);
export const validateMarketQuery = compileSchema<MarketQuery>(marketQuerySchema);
export const validateBookQuery = compileSchema<BookQuery>(bookQuerySchema);
export const validateTradesQuery = compileSchema<TradesQuery>(tradesQuerySchema);
export const validateConditionIdParam = compileSchema<{ condition_id: string }>(conditionIdParamSchema);
export { MAX_LIMIT };
