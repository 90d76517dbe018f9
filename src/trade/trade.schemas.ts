/**
 * Inputs and outputs of the /trade API (decisions section 9). One ajv instance validates the
 * inputs; the OpenAPI document is built from these same objects.
 */
import { PAGE_QUERY_PROPERTIES, pageSchema } from '../http/pagination';
import type { QuerySchema } from '../http/query';
import { ADDRESS, HEX32, marketSchema } from '../markets/market.schemas';
import { compileSchema } from '../validation/ajv';

const CHAIN_ID = { type: 'integer', minimum: 1, description: 'Chain id, e.g. 56' } as const;
/** At most 15 whole digits: larger amounts are absurd for any market (and stay far from uint256). */
const AMOUNT = { type: 'string', pattern: '^[0-9]{1,15}(\\.[0-9]{1,36})?$', description: 'Positive decimal string' } as const;
const OUTCOME = { type: 'integer', enum: [0, 1] } as const;
const SIDE = { type: 'string', enum: ['BUY', 'SELL'] } as const;
export const TX_HASH = { type: 'string', pattern: '^0x[0-9a-fA-F]{64}$' } as const;
export const DEFAULT_SLIPPAGE_BPS = 100;
export const MAX_SLIPPAGE_BPS = 5000;
const NULLABLE_DECIMAL = { type: ['string', 'null'] } as const;

export interface QuoteBody {
  chain_id: number;
  condition_id: string;
  outcome: 0 | 1;
  side: 'BUY' | 'SELL';
  amount: string;
}

export const quoteBodySchema = {
  type: 'object',
  additionalProperties: false,
  required: ['chain_id', 'condition_id', 'outcome', 'side', 'amount'],
  properties: { chain_id: CHAIN_ID, condition_id: HEX32, outcome: OUTCOME, side: SIDE, amount: AMOUNT },
} as const;

export interface TradeBody extends QuoteBody {
  wallet: string;
  slippage_bps: number;
}

export const tradeBodySchema = {
  type: 'object',
  additionalProperties: false,
  required: ['chain_id', 'condition_id', 'wallet', 'outcome', 'side', 'amount'],
  properties: {
    ...quoteBodySchema.properties,
    wallet: ADDRESS,
    slippage_bps: { type: 'integer', minimum: 0, maximum: MAX_SLIPPAGE_BPS, default: DEFAULT_SLIPPAGE_BPS },
  },
} as const;

export interface WalletMarketBody {
  chain_id: number;
  condition_id: string;
  wallet: string;
}

export const redeemBodySchema = {
  type: 'object',
  additionalProperties: false,
  required: ['chain_id', 'condition_id', 'wallet'],
  properties: { chain_id: CHAIN_ID, condition_id: HEX32, wallet: ADDRESS },
} as const;

export interface SaveBody {
  chain_id: number;
  tx_hash: string;
  wallet: string;
}

export const saveBodySchema = {
  type: 'object',
  additionalProperties: false,
  required: ['chain_id', 'tx_hash', 'wallet'],
  properties: { chain_id: CHAIN_ID, tx_hash: TX_HASH, wallet: ADDRESS },
} as const;

export const tradeMarketsQuerySchema = {
  type: 'object',
  additionalProperties: false,
  properties: {
    chain_id: CHAIN_ID,
    status: { type: 'string', enum: ['open', 'closed', 'resolved', 'paused'], default: 'open', description: 'Case-insensitive' },
    kind: { type: 'string', enum: ['amm', 'clob', 'all'], default: 'all', description: 'Case-insensitive' },
    ...PAGE_QUERY_PROPERTIES,
  },
} as const satisfies QuerySchema;
export interface TradeMarketsQuery {
  chain_id?: number;
  status: 'open' | 'closed' | 'resolved' | 'paused';
  kind: 'amm' | 'clob' | 'all';
  cursor?: string;
  limit: number;
}

export const tradePositionsQuerySchema = {
  type: 'object',
  additionalProperties: false,
  required: ['wallet'],
  properties: {
    wallet: ADDRESS,
    chain_id: CHAIN_ID,
    status: { type: 'string', enum: ['active', 'resolved', 'all'], default: 'active', description: 'Case-insensitive' },
    ...PAGE_QUERY_PROPERTIES,
  },
} as const satisfies QuerySchema;
export interface TradePositionsQuery {
  wallet: string;
  chain_id?: number;
  status: 'active' | 'resolved' | 'all';
  cursor?: string;
  limit: number;
}

export const saveQuerySchema = {
  type: 'object',
  additionalProperties: false,
  properties: { chain_id: CHAIN_ID },
} as const satisfies QuerySchema;

export const txHashParamSchema = { type: 'object', required: ['tx_hash'], properties: { tx_hash: TX_HASH } } as const;

export const validateQuoteBody = compileSchema<QuoteBody>(quoteBodySchema);
export const validateTradeBody = compileSchema<TradeBody>(tradeBodySchema);
export const validateRedeemBody = compileSchema<WalletMarketBody>(redeemBodySchema);
export const validateSaveBody = compileSchema<SaveBody>(saveBodySchema);
export const validateTradeMarketsQuery = compileSchema<TradeMarketsQuery>(tradeMarketsQuerySchema);
export const validateTradePositionsQuery = compileSchema<TradePositionsQuery>(tradePositionsQuerySchema);
export const validateSaveQuery = compileSchema<{ chain_id?: number }>(saveQuerySchema);
export const validateTxHashParam = compileSchema<{ tx_hash: string }>(txHashParamSchema);

// ---- outputs (documentation; the routes build them) ----

const txSchema = {
  type: 'object',
  required: ['chain_id', 'to', 'data', 'value'],
  properties: { chain_id: { type: 'integer' }, to: ADDRESS, data: { type: 'string' }, value: { type: 'string' } },
} as const;

export const quoteResponseSchema = {
  type: 'object',
  required: ['kind', 'chain_id', 'condition_id', 'outcome', 'side', 'amount', 'average_price', 'price_before', 'price_after', 'price_impact_bps', 'fee', 'block_number'],
  properties: {
    kind: { type: 'string', enum: ['AMM', 'CLOB'] },
    chain_id: { type: 'integer' },
    condition_id: HEX32,
    outcome: OUTCOME,
    side: SIDE,
    amount: { type: 'string' },
    expected_shares: { type: 'string', description: 'BUY: shares received' },
    expected_collateral: { type: 'string', description: 'SELL: collateral received, after the fee' },
    average_price: NULLABLE_DECIMAL,
    price_before: NULLABLE_DECIMAL,
    price_after: NULLABLE_DECIMAL,
    price_impact_bps: { type: 'integer' },
    fee: { type: 'string' },
    block_number: { type: ['string', 'null'], description: 'AMM: the block the quote is exact at; CLOB: null (see book_seq)' },
    book_seq: { type: 'integer', description: 'CLOB: the book sequence number walked' },
    fillable_amount: { type: 'string', description: 'CLOB: the part of amount the book can take, when less than amount' },
    partial: { type: 'boolean' },
  },
} as const;

export const tradeResponseSchema = {
  type: 'object',
  required: ['kind', 'quote'],
  properties: {
    kind: { type: 'string', enum: ['AMM', 'CLOB'] },
    quote: quoteResponseSchema,
    tx: txSchema,
    approvals: { type: 'array', items: { type: 'object', required: ['to', 'data'], properties: { to: ADDRESS, data: { type: 'string' } } } },
    typed_data: {
      type: 'object',
      required: ['domain', 'types', 'primaryType', 'message'],
      properties: { domain: { type: 'object' }, types: { type: 'object' }, primaryType: { type: 'string', enum: ['Order'] }, message: { type: 'object' } },
    },
    order: { type: 'object', description: 'The POST /v1/orders item without its signature' },
  },
} as const;

export const redeemResponseSchema = {
  type: 'object',
  required: ['tx', 'payout'],
  properties: { tx: txSchema, payout: { type: 'string' } },
} as const;

export const tradeMarketSchema = {
  type: 'object',
  required: [...marketSchema.required, 'kind'],
  properties: {
    ...marketSchema.properties,
    kind: { type: 'string', enum: ['AMM', 'CLOB'] },
    best_bid: NULLABLE_DECIMAL,
    best_ask: NULLABLE_DECIMAL,
    last_price: NULLABLE_DECIMAL,
    amm: { type: 'object' },
  },
} as const;
export const tradeMarketPageSchema = pageSchema(tradeMarketSchema);

export const tradePositionSchema = {
  type: 'object',
  required: ['condition_id', 'chain_id', 'kind', 'outcome', 'outcome_label', 'token_id', 'size', 'avg_price', 'current_price', 'current_value', 'redeemable'],
  properties: {
    condition_id: HEX32,
    chain_id: { type: 'integer' },
    kind: { type: 'string', enum: ['AMM', 'CLOB'] },
    outcome: OUTCOME,
    outcome_label: { type: 'string', enum: ['NO', 'YES'] },
    token_id: { type: 'string' },
    size: { type: 'string' },
    avg_price: NULLABLE_DECIMAL,
    current_price: NULLABLE_DECIMAL,
    current_value: NULLABLE_DECIMAL,
    redeemable: { type: 'boolean' },
  },
} as const;
export const tradePositionPageSchema = pageSchema(tradePositionSchema);

export const tradeTxSchema = {
  type: 'object',
  required: ['chain_id', 'tx_hash', 'wallet', 'status', 'created_at'],
  properties: {
    chain_id: { type: 'integer' },
    tx_hash: TX_HASH,
    wallet: ADDRESS,
    status: { type: 'string', enum: ['PENDING', 'CONFIRMED', 'REVERTED', 'NOT_FOUND'] },
    status_reason: { type: ['string', 'null'] },
    block_number: { type: ['string', 'null'] },
    condition_ids: { type: 'array', items: HEX32 },
    trades: { type: 'array', items: { type: 'object' } },
    created_at: { type: 'string', format: 'date-time' },
    updated_at: { type: 'string', format: 'date-time' },
  },
} as const;
