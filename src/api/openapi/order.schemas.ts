import { ADDRESS, DECIMAL, HEX32, UINT_STRING } from '../../markets/market.schemas';
import { pageSchema } from '../../http/pagination';
import { STATUS_REASON_CODES, STATUS_REASONS } from '../../ports/status-reasons';

// Request schemas are the ones the order routes validate with: one source for both.
export {
  cancelBodySchema as cancelOrdersBodySchema,
  fillsQuerySchema as listFillsQuerySchema,
  ordersQuerySchema as listOrdersQuerySchema,
  placeOrdersBodySchema,
  positionsQuerySchema as listPositionsQuerySchema,
} from '../../orders/order.schema';

/**
 * The order, fill and position response shapes of api-v1.md and decisions.md, as JSON schemas. They
 * document routes whose handlers live in the orders module; that module may import and compile
 * these so that the OpenAPI document and its validation stay one source.
 */
const DATE_TIME = { type: 'string', format: 'date-time' } as const;
const ORDER_STATUS = { type: 'string', enum: ['OPEN', 'PARTIALLY_FILLED', 'MATCHED', 'FILLED', 'CANCELLED', 'EXPIRED', 'MATCH_FAILED'] } as const;
const STATUS_REASON = {
  type: ['string', 'null'],
  enum: [...STATUS_REASON_CODES, null],
  description: 'Why the order ended: null while it lives and when FILLED or MATCHED; for CANCELLED, EXPIRED and MATCH_FAILED one of: '
    + STATUS_REASON_CODES.map((code) => `${code} (${STATUS_REASONS[code]})`).join('; '),
};
const SIDE = { type: 'string', enum: ['BUY', 'SELL'] } as const;
const OUTCOME = { type: 'integer', enum: [0, 1] } as const;
const CHAIN_ID = { type: 'integer', minimum: 1 } as const;
const inlineError = {
  type: 'object',
  additionalProperties: false,
  required: ['error'],
  properties: {
    error: {
      type: 'object',
      required: ['code', 'message'],
      properties: { code: { type: 'string' }, message: { type: 'string' }, details: { type: 'object' } },
    },
  },
} as const;

export const placedOrderSchema = {
  type: 'object',
  required: ['order_hash', 'condition_id', 'chain_id', 'status', 'side', 'outcome', 'price', 'size', 'remaining_size', 'fills', 'book_added_at', 'created_at'],
  properties: {
    order_hash: HEX32,
    condition_id: HEX32,
    chain_id: CHAIN_ID,
    status: { type: 'string', const: 'OPEN' },
    side: SIDE,
    outcome: OUTCOME,
    price: DECIMAL,
    size: DECIMAL,
    remaining_size: DECIMAL,
    fills: { type: 'array', maxItems: 0 },
    book_added_at: { type: 'null' },
    created_at: DATE_TIME,
    client_order_id: { type: ['string', 'null'] },
  },
} as const;

export const placeOrdersResponseSchema = {
  type: 'object',
  required: ['results'],
  properties: {
    results: { type: 'array', items: { oneOf: [placedOrderSchema, inlineError] } },
    _idempotent_replayed: { type: 'boolean', const: true },
  },
} as const;

export const orderRecordSchema = {
  type: 'object',
  additionalProperties: false,
  required: [
    'order_hash', 'condition_id', 'chain_id', 'side', 'outcome', 'order_type', 'price', 'size', 'remaining_size', 'status', 'status_reason',
    'token_id', 'fee_rate_bps', 'expiration', 'book_added_at', 'created_at', 'updated_at', 'client_order_id', 'post_only',
  ],
  properties: {
    order_hash: HEX32,
    client_order_id: { type: ['string', 'null'], pattern: '^[A-Za-z0-9._:-]{1,64}$', description: 'The id the trader gave the order, null when none' },
    post_only: { type: 'boolean', description: 'The order may only add liquidity (LIMIT and GTD)' },
    condition_id: HEX32,
    chain_id: CHAIN_ID,
    side: SIDE,
    outcome: OUTCOME,
    order_type: { type: 'string', enum: ['LIMIT', 'MARKET', 'GTD', 'FOK'] },
    price: DECIMAL,
    size: DECIMAL,
    remaining_size: DECIMAL,
    status: ORDER_STATUS,
    status_reason: STATUS_REASON,
    token_id: UINT_STRING,
    fee_rate_bps: { type: 'integer', minimum: 0 },
    expiration: { ...UINT_STRING, description: 'unix seconds, 0 = no expiry' },
    book_added_at: { type: ['string', 'null'], format: 'date-time' },
    created_at: DATE_TIME,
    updated_at: DATE_TIME,
  },
} as const;

export const cancelOrdersResponseSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['cancelled', 'not_cancelled'],
  properties: {
    cancelled: { type: 'array', items: HEX32 },
    has_more: {
      type: 'boolean',
      description: 'Cancel by filter or all only: true when more live orders matched than one request ends (1,000); send the same request again until it is false.',
    },
    not_cancelled: {
      type: 'array',
      items: {
        type: 'object',
        required: ['order_hash', 'error'],
        properties: {
          order_hash: { type: ['string', 'null'], pattern: '^0x[0-9a-fA-F]{64}$', description: 'null for a client_order_id no order carries' },
          client_order_id: { type: 'string', description: 'Set when the cancel named client_order_ids and no order carries this one' },
          error: inlineError.properties.error,
        },
      },
    },
  },
} as const;

export const cancelOnchainResponseSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['to', 'data', 'chain_id'],
  properties: { to: ADDRESS, data: { type: 'string', pattern: '^0x[0-9a-fA-F]*$' }, chain_id: CHAIN_ID },
} as const;

export const fillSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['trade_id', 'order_hash', 'condition_id', 'chain_id', 'role', 'side', 'outcome', 'price', 'size', 'fee', 'settlement_status', 'tx_hash', 'created_at'],
  properties: {
    trade_id: { type: 'string' },
    order_hash: HEX32,
    condition_id: HEX32,
    chain_id: CHAIN_ID,
    role: { type: 'string', enum: ['maker', 'taker'] },
    side: SIDE,
    outcome: OUTCOME,
    price: DECIMAL,
    size: DECIMAL,
    fee: DECIMAL,
    settlement_status: { type: 'string', enum: ['PENDING', 'MINED', 'CONFIRMED', 'RETRYING', 'FAILED'] },
    tx_hash: { type: 'string', description: '"" until a transaction exists' },
    created_at: DATE_TIME,
  },
} as const;

export const positionSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['condition_id', 'chain_id', 'outcome', 'outcome_label', 'token_id', 'size', 'avg_price', 'current_value', 'realized_pnl', 'status', 'resolution_outcome'],
  properties: {
    condition_id: HEX32,
    chain_id: CHAIN_ID,
    outcome: OUTCOME,
    outcome_label: { type: 'string', enum: ['NO', 'YES'] },
    token_id: UINT_STRING,
    size: DECIMAL,
    avg_price: DECIMAL,
    current_value: DECIMAL,
    realized_pnl: DECIMAL,
    status: { type: 'string', enum: ['active', 'resolved'] },
    resolution_outcome: { type: ['integer', 'null'], enum: [0, 1, null] },
  },
} as const;

export const orderPageSchema = pageSchema(orderRecordSchema);
export const fillPageSchema = pageSchema(fillSchema);
export const positionPageSchema = pageSchema(positionSchema);

const AMOUNT = { ...DECIMAL, description: 'Decimal string in the asset\'s units' };
export const balancesResponseSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['collateral', 'tokens'],
  properties: {
    collateral: {
      type: ['object', 'null'],
      additionalProperties: false,
      required: ['token', 'balance', 'allowance', 'reserved', 'available'],
      properties: { token: ADDRESS, balance: AMOUNT, allowance: AMOUNT, reserved: AMOUNT, available: { ...AMOUNT, description: 'min(balance, allowance) - reserved: what new BUY orders may commit' } },
    },
    tokens: {
      type: 'array',
      items: {
        type: 'object',
        additionalProperties: false,
        required: ['token_id', 'condition_id', 'outcome', 'balance', 'approved', 'reserved', 'available'],
        properties: {
          token_id: UINT_STRING, condition_id: HEX32, outcome: OUTCOME, balance: AMOUNT, approved: { type: 'boolean' }, reserved: AMOUNT,
          available: { ...AMOUNT, description: 'balance (0 without approval) - reserved: what new SELL orders may commit' },
        },
      },
    },
  },
} as const;

export const heartbeatResponseSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['armed', 'expires_at'],
  properties: { armed: { type: 'boolean' }, expires_at: { type: ['string', 'null'], format: 'date-time' } },
} as const;

export const candlesResponseSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['data'],
  properties: {
    data: {
      type: 'array',
      maxItems: 1000,
      items: {
        type: 'object',
        additionalProperties: false,
        required: ['t', 'open', 'high', 'low', 'close', 'volume'],
        properties: {
          t: { type: 'integer', description: 'Interval start, unix seconds' },
          open: DECIMAL, high: DECIMAL, low: DECIMAL, close: DECIMAL,
          volume: { ...DECIMAL, description: 'Shares traded' },
        },
      },
    },
  },
} as const;

export { balancesQuerySchema } from '../../orders/read-balances';
export { heartbeatBodySchema } from '../../orders/heartbeat.routes';
export { candlesQuerySchema } from '../../candles/read-candles';
