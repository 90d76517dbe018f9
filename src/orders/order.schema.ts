import { PAGE_QUERY_PROPERTIES } from '../http/pagination';
import type { QuerySchema } from '../http/query';
import { compileSchema } from '../validation/ajv';

/** Most orders in one POST /v1/orders; more is 422 BATCH_SIZE_EXCEEDED (checked before the schema). */
export const MAX_ORDERS_PER_BATCH = 15;
export const MAX_CANCEL_HASHES = 100;
export const MAX_TRADE_IDS = 100;

const UINT = { type: 'string', pattern: '^[0-9]{1,78}$' } as const;
const DECIMAL = { type: 'string', pattern: '^[0-9]{1,40}(\\.[0-9]{1,60})?$' } as const;
const ADDRESS = { type: 'string', pattern: '^0x[0-9a-fA-F]{40}$' } as const;
export const CONDITION_ID = { type: 'string', pattern: '^0x[0-9a-fA-F]{64}$' } as const;
export const ORDER_HASH = { type: 'string', pattern: '^0x[0-9a-fA-F]{64}$' } as const;
/** A trader's own name for an order (decisions section 11): not signed, unique among its live orders. */
export const CLIENT_ORDER_ID = { type: 'string', pattern: '^[A-Za-z0-9._:-]{1,64}$' } as const;
export const ORDER_TYPES = ['LIMIT', 'MARKET', 'GTD', 'FOK'] as const;

export interface PlaceOrderItem {
  condition_id: string;
  chain_id: number;
  side: 'BUY' | 'SELL';
  order_type: (typeof ORDER_TYPES)[number];
  outcome: 0 | 1;
  price: string;
  size: string;
  salt: string;
  signer: string;
  taker: string;
  token_id: string;
  maker_amount: string;
  taker_amount: string;
  expiration: string;
  nonce: string;
  fee_rate_bps: number;
  signature_type: 0 | 1;
  signature: string;
  client_order_id?: string;
  /** LIMIT and GTD only: never take liquidity (decided by the market's matcher). */
  post_only?: boolean;
}

export const placeOrderItemSchema = {
  type: 'object',
  additionalProperties: false,
  required: [
    'condition_id', 'chain_id', 'side', 'order_type', 'outcome', 'price', 'size', 'salt', 'signer', 'taker', 'token_id',
    'maker_amount', 'taker_amount', 'expiration', 'nonce', 'fee_rate_bps', 'signature_type', 'signature',
  ],
  properties: {
    condition_id: CONDITION_ID,
    chain_id: { type: 'integer', minimum: 1 },
    side: { type: 'string', enum: ['BUY', 'SELL'] },
    order_type: { type: 'string', enum: ORDER_TYPES },
    outcome: { type: 'integer', enum: [0, 1] },
    price: DECIMAL,
    size: DECIMAL,
    salt: UINT,
    signer: ADDRESS,
    taker: ADDRESS,
    token_id: UINT,
    maker_amount: UINT,
    taker_amount: UINT,
    expiration: UINT,
    nonce: UINT,
    fee_rate_bps: { type: 'integer', minimum: 0, maximum: 10_000 },
    signature_type: { type: 'integer', enum: [0, 1] },
    signature: { type: 'string', pattern: '^0x([0-9a-fA-F]{2}){1,1024}$' },
    client_order_id: CLIENT_ORDER_ID,
    post_only: { type: 'boolean' },
  },
} as const;

export interface PlaceOrdersBody {
  orders: PlaceOrderItem[];
}

export const placeOrdersBodySchema = {
  type: 'object',
  additionalProperties: false,
  required: ['orders'],
  properties: { orders: { type: 'array', minItems: 1, maxItems: MAX_ORDERS_PER_BATCH, items: placeOrderItemSchema } },
} as const;
export const validatePlaceOrdersBody = compileSchema<PlaceOrdersBody>(placeOrdersBodySchema);

export type CancelBody =
  | { order_hashes: string[] }
  | { client_order_ids: string[] }
  | { filter: { condition_id?: string; chain_id?: number; side?: 'BUY' | 'SELL'; outcome?: 0 | 1 } }
  | { all: true };

export const cancelBodySchema = {
  type: 'object',
  additionalProperties: false,
  minProperties: 1,
  maxProperties: 1,
  properties: {
    order_hashes: { type: 'array', minItems: 1, maxItems: MAX_CANCEL_HASHES, items: ORDER_HASH },
    client_order_ids: { type: 'array', minItems: 1, maxItems: MAX_CANCEL_HASHES, items: CLIENT_ORDER_ID },
    filter: {
      type: 'object',
      additionalProperties: false,
      properties: {
        condition_id: CONDITION_ID,
        chain_id: { type: 'integer', minimum: 1 },
        side: { type: 'string', enum: ['BUY', 'SELL'] },
        outcome: { type: 'integer', enum: [0, 1] },
      },
    },
    all: { type: 'boolean', const: true },
  },
} as const;
export const validateCancelBody = compileSchema<CancelBody>(cancelBodySchema);

export const orderHashParamSchema = { type: 'object', required: ['order_hash'], properties: { order_hash: ORDER_HASH } } as const;
export const validateOrderHashParam = compileSchema<{ order_hash: string }>(orderHashParamSchema);

export interface OrdersQuery {
  chain_id?: number;
  condition_id?: string;
  client_order_id?: string;
  status: 'open' | 'filled' | 'cancelled' | 'all';
  cursor?: string;
  limit: number;
}
export const ordersQuerySchema = {
  type: 'object',
  additionalProperties: false,
  properties: {
    chain_id: { type: 'integer', minimum: 1 },
    condition_id: CONDITION_ID,
    client_order_id: CLIENT_ORDER_ID,
    status: { type: 'string', enum: ['open', 'filled', 'cancelled', 'all'], default: 'all' },
    ...PAGE_QUERY_PROPERTIES,
  },
} satisfies QuerySchema;
export const validateOrdersQuery = compileSchema<OrdersQuery>(ordersQuerySchema);

export interface FillsQuery {
  chain_id?: number;
  condition_id?: string;
  trade_ids?: string[];
  cursor?: string;
  limit: number;
}
export const fillsQuerySchema = {
  type: 'object',
  additionalProperties: false,
  properties: {
    chain_id: { type: 'integer', minimum: 1 },
    condition_id: CONDITION_ID,
    trade_ids: { type: 'array', minItems: 1, maxItems: MAX_TRADE_IDS, items: { type: 'string', minLength: 1, maxLength: 200 } },
    ...PAGE_QUERY_PROPERTIES,
  },
} satisfies QuerySchema;
export const validateFillsQuery = compileSchema<FillsQuery>(fillsQuerySchema);

export interface PositionsQuery {
  chain_id?: number;
  condition_id?: string;
  status: 'active' | 'resolved' | 'all';
  cursor?: string;
  limit: number;
}
export const positionsQuerySchema = {
  type: 'object',
  additionalProperties: false,
  properties: {
    chain_id: { type: 'integer', minimum: 1 },
    condition_id: CONDITION_ID,
    status: { type: 'string', enum: ['active', 'resolved', 'all'], default: 'all' },
    ...PAGE_QUERY_PROPERTIES,
  },
} satisfies QuerySchema;
export const validatePositionsQuery = compileSchema<PositionsQuery>(positionsQuerySchema);
