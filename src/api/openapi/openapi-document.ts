import { ERROR_TABLE, ErrorCode } from '../../errors';
import {
  apiKeyListSchema,
  apiKeyMetadataSchema,
  createApiKeyBodySchema,
  issuedApiKeySchema,
  KEY_ID,
  wsTokenSchema,
} from '../../auth/auth.schemas';
import {
  bookQuerySchema,
  bookSnapshotSchema,
  HEX32,
  listMarketsQuerySchema,
  marketPageSchema,
  marketQuerySchema,
  marketSchema,
  publicTradePageSchema,
  standaloneTickerSchema,
  tokensResponseSchema,
  tradesQuerySchema,
} from '../../markets/market.schemas';
import {
  cancelOnchainResponseSchema,
  cancelOrdersBodySchema,
  cancelOrdersResponseSchema,
  fillPageSchema,
  listFillsQuerySchema,
  listOrdersQuerySchema,
  listPositionsQuerySchema,
  orderPageSchema,
  orderRecordSchema,
  placeOrdersBodySchema,
  placeOrdersResponseSchema,
  positionPageSchema,
  balancesQuerySchema,
  balancesResponseSchema,
  candlesQuerySchema,
  candlesResponseSchema,
  heartbeatBodySchema,
  heartbeatResponseSchema,
} from './order.schemas';
import {
  quoteBodySchema,
  quoteResponseSchema,
  redeemBodySchema,
  redeemResponseSchema,
  saveBodySchema,
  saveQuerySchema,
  TX_HASH,
  tradeBodySchema,
  tradeMarketPageSchema,
  tradeMarketsQuerySchema,
  tradePositionPageSchema,
  tradePositionsQuerySchema,
  tradeResponseSchema,
  tradeTxSchema,
} from '../../trade/trade.schemas';

/**
 * The OpenAPI 3.1 document of /v1, built from the very schemas the routes validate with (JSON
 * Schema 2020-12 compatible subset), so the document cannot drift from the validation.
 */
export const errorEnvelopeSchema = {
  type: 'object',
  required: ['correlation_id', 'code', 'message', 'status_code', 'timestamp', 'path'],
  properties: {
    correlation_id: { type: 'string' },
    code: { type: 'string', enum: Object.keys(ERROR_TABLE) },
    message: { type: 'string' },
    status_code: { type: 'integer' },
    timestamp: { type: 'string', format: 'date-time' },
    path: { type: 'string' },
    details: { type: 'object' },
  },
} as const;

/** PLATFORM: a partner app's platform key (/trade routes, decisions section 9). */
type Tier = 'L0' | 'L1' | 'L2' | 'PLATFORM';
interface QueryLike {
  properties: Record<string, object>;
  required?: readonly string[];
}
interface Operation {
  summary: string;
  tier: Tier;
  permission?: 'read' | 'trade';
  query?: QueryLike;
  path?: Record<string, object>;
  body?: object;
  headers?: Record<string, { schema: object; description: string }>;
  ok: { status: number; schema: object; description: string };
  errors: ErrorCode[];
}

const SECURITY: Record<Tier, object[]> = {
  L0: [],
  L1: [{ bearerJwt: [] }],
  L2: [{ bearerJwt: [] }, { apiKey: [], apiSecret: [] }],
  PLATFORM: [{ platformKey: [], platformSecret: [] }],
};
const AUTH_ERRORS: Record<Tier, ErrorCode[]> = {
  L0: [],
  L1: ['AUTH_MISSING', 'AUTH_INVALID', 'AUTH_REVOKED', 'FORBIDDEN'],
  L2: ['AUTH_MISSING', 'AUTH_INVALID', 'AUTH_REVOKED', 'FORBIDDEN'],
  PLATFORM: ['AUTH_MISSING', 'AUTH_INVALID', 'AUTH_REVOKED', 'FORBIDDEN'],
};
const LANGUAGE_HEADER = { 'X-Language': { schema: { type: 'string', enum: ['en', 'cn'], default: 'en' }, description: 'Language of summary and rules; unknown values fall back to en' } };

function operation(op: Operation): object {
  const parameters: object[] = [];
  for (const [name, schema] of Object.entries(op.path ?? {})) parameters.push({ name, in: 'path', required: true, schema });
  for (const [name, schema] of Object.entries(op.query?.properties ?? {})) {
    parameters.push({ name, in: 'query', required: op.query?.required?.includes(name) ?? false, schema });
  }
  for (const [name, h] of Object.entries(op.headers ?? {})) parameters.push({ name, in: 'header', required: false, ...h });
  const codes = [...new Set<ErrorCode>([...AUTH_ERRORS[op.tier], ...op.errors, 'INTERNAL_ERROR'])];
  const responses: Record<string, object> = {
    [String(op.ok.status)]: { description: op.ok.description, content: { 'application/json': { schema: op.ok.schema } } },
  };
  for (const status of [...new Set(codes.map((c) => ERROR_TABLE[c].status))].sort()) {
    const here = codes.filter((c) => ERROR_TABLE[c].status === status);
    responses[String(status)] = { description: here.join(', '), content: { 'application/json': { schema: { $ref: '#/components/schemas/ErrorEnvelope' } } } };
  }
  const tierNote = op.tier === 'L0' ? 'Tier L0 (public).' : op.tier === 'PLATFORM' ? 'Platform key (fs-platform-key, fs-platform-secret).' : `Tier ${op.tier}${op.permission ? `, API-key permission \`${op.permission}\`` : ''}.`;
  return {
    summary: op.summary,
    description: `${tierNote} Unknown query parameters are rejected with 422 VALIDATION_ERROR.`,
    'x-tier': op.tier,
    ...(op.permission ? { 'x-permission': op.permission } : {}),
    security: SECURITY[op.tier],
    parameters,
    ...(op.body ? { requestBody: { required: true, content: { 'application/json': { schema: op.body } } } } : {}),
    responses,
  };
}

const conditionPath = { condition_id: HEX32 };
/** The /trade routes live beside /v1, at the root. */
const ROOT_SERVER = [{ url: '/' }];

function tradePaths(): Record<string, object> {
  const tradeErrors: ErrorCode[] = ['VALIDATION_ERROR', 'NOT_FOUND', 'MARKET_NOT_ACTIVE', 'SERVICE_DEGRADED'];
  return {
    '/trade/markets': {
      servers: ROOT_SERVER,
      get: operation({ summary: 'Markets of both kinds; CLOB items with best bid, ask and last price (YES)', tier: 'L0', query: tradeMarketsQuerySchema, headers: LANGUAGE_HEADER, ok: { status: 200, schema: tradeMarketPageSchema, description: 'Page of Market with kind' }, errors: ['VALIDATION_ERROR', 'NOT_FOUND'] }),
    },
    '/trade/quote': {
      servers: ROOT_SERVER,
      post: operation({ summary: 'Quote a BUY (amount: collateral) or SELL (amount: shares) on an AMM pool or the CLOB book', tier: 'L0', body: quoteBodySchema, ok: { status: 200, schema: quoteResponseSchema, description: 'Quote' }, errors: tradeErrors }),
    },
    '/trade': {
      servers: ROOT_SERVER,
      post: operation({ summary: "The wallet's transaction (AMM) or order to sign (CLOB) for a quoted trade", tier: 'PLATFORM', body: tradeBodySchema, ok: { status: 200, schema: tradeResponseSchema, description: 'AMM: tx and approvals; CLOB: typed_data and order' }, errors: tradeErrors }),
    },
    '/trade/redeem': {
      servers: ROOT_SERVER,
      post: operation({ summary: "redeemPositions for the wallet's winning balance, and its payout", tier: 'PLATFORM', body: redeemBodySchema, ok: { status: 200, schema: redeemResponseSchema, description: '{tx, payout}' }, errors: ['VALIDATION_ERROR', 'NOT_FOUND', 'MARKET_NOT_RESOLVED', 'SERVICE_DEGRADED'] }),
    },
    '/trade/positions': {
      servers: ROOT_SERVER,
      get: operation({ summary: 'Outcome-token balances on chain, per market the wallet holds', tier: 'L0', query: tradePositionsQuerySchema, ok: { status: 200, schema: tradePositionPageSchema, description: 'Page of trade position' }, errors: ['VALIDATION_ERROR', 'NOT_FOUND', 'SERVICE_DEGRADED'] }),
    },
    '/trade/save': {
      servers: ROOT_SERVER,
      post: operation({ summary: "Follow a wallet's transaction to its end (one workflow per hash)", tier: 'PLATFORM', body: saveBodySchema, ok: { status: 202, schema: tradeTxSchema, description: 'The saved transaction' }, errors: ['VALIDATION_ERROR', 'NOT_FOUND', 'IDEMPOTENCY_CONFLICT', 'SERVICE_DEGRADED'] }),
    },
    '/trade/save/{tx_hash}': {
      servers: ROOT_SERVER,
      get: operation({ summary: 'A saved transaction', tier: 'L0', path: { tx_hash: TX_HASH }, query: saveQuerySchema, ok: { status: 200, schema: tradeTxSchema, description: 'The saved transaction' }, errors: ['VALIDATION_ERROR', 'NOT_FOUND'] }),
    },
  };
}
const orderHashPath = { order_hash: HEX32 };

export function buildOpenApiDocument(): Record<string, unknown> {
  return {
    openapi: '3.1.0',
    info: {
      title: 'Order-Book Trading Service API',
      version: '1.0.0',
      description: 'Central-limit order-book trading of binary prediction markets. Numbers are decimal strings; lists are newest first with an opaque cursor.',
    },
    jsonSchemaDialect: 'https://json-schema.org/draft/2020-12/schema',
    servers: [{ url: '/v1' }],
    components: {
      securitySchemes: {
        bearerJwt: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT', description: 'Identity-provider JWT with claim wallet_address' },
        apiKey: { type: 'apiKey', in: 'header', name: 'fs-api-key' },
        apiSecret: { type: 'apiKey', in: 'header', name: 'fs-api-secret' },
        platformKey: { type: 'apiKey', in: 'header', name: 'fs-platform-key' },
        platformSecret: { type: 'apiKey', in: 'header', name: 'fs-platform-secret' },
      },
      schemas: {
        ErrorEnvelope: errorEnvelopeSchema,
        Market: marketSchema,
        OrderRecord: orderRecordSchema,
        ApiKeyMetadata: apiKeyMetadataSchema,
      },
    },
    paths: {
      ...tradePaths(),
      '/markets': {
        get: operation({ summary: 'List markets', tier: 'L0', query: listMarketsQuerySchema, headers: LANGUAGE_HEADER, ok: { status: 200, schema: marketPageSchema, description: 'Page of Market' }, errors: ['VALIDATION_ERROR', 'NOT_FOUND'] }),
      },
      '/markets/{condition_id}': {
        get: operation({ summary: 'Get a market (any status)', tier: 'L0', path: conditionPath, query: marketQuerySchema, headers: LANGUAGE_HEADER, ok: { status: 200, schema: marketSchema, description: 'Market' }, errors: ['VALIDATION_ERROR', 'NOT_FOUND'] }),
      },
      '/markets/{condition_id}/tokens': {
        get: operation({ summary: "A market's outcome tokens", tier: 'L0', path: conditionPath, query: marketQuerySchema, ok: { status: 200, schema: tokensResponseSchema, description: 'Tokens' }, errors: ['VALIDATION_ERROR', 'NOT_FOUND'] }),
      },
      '/markets/{condition_id}/book': {
        get: operation({ summary: 'Order book snapshot (YES terms, best first)', tier: 'L0', path: conditionPath, query: bookQuerySchema, ok: { status: 200, schema: bookSnapshotSchema, description: 'Orderbook snapshot' }, errors: ['VALIDATION_ERROR', 'NOT_FOUND'] }),
      },
      '/markets/{condition_id}/ticker': {
        get: operation({ summary: 'Standalone ticker', tier: 'L0', path: conditionPath, query: marketQuerySchema, ok: { status: 200, schema: standaloneTickerSchema, description: 'Ticker (snake_case strings or null)' }, errors: ['VALIDATION_ERROR', 'NOT_FOUND'] }),
      },
      '/markets/{condition_id}/trades': {
        get: operation({ summary: 'Public trades (settled prints)', tier: 'L0', path: conditionPath, query: tradesQuerySchema, ok: { status: 200, schema: publicTradePageSchema, description: 'Page of Public trade' }, errors: ['VALIDATION_ERROR', 'NOT_FOUND'] }),
      },
      '/markets/{condition_id}/candles': {
        get: operation({ summary: 'OHLCV candles of settled trades (YES prices), oldest first, at most 1,000', tier: 'L0', path: conditionPath, query: candlesQuerySchema, ok: { status: 200, schema: candlesResponseSchema, description: '{data: [candle]}; intervals without trades left out' }, errors: ['VALIDATION_ERROR', 'NOT_FOUND'] }),
      },
      '/auth/api-keys': {
        post: operation({ summary: 'Create an API key', tier: 'L1', body: createApiKeyBodySchema, ok: { status: 201, schema: issuedApiKeySchema, description: 'The secret is shown once' }, errors: ['VALIDATION_ERROR'] }),
        get: operation({ summary: 'List non-revoked API keys', tier: 'L1', ok: { status: 200, schema: apiKeyListSchema, description: '{data: [metadata]}' }, errors: ['VALIDATION_ERROR'] }),
      },
      '/auth/api-keys/{key_id}': {
        delete: operation({ summary: 'Revoke an API key (soft, immediate)', tier: 'L1', path: { key_id: KEY_ID }, ok: { status: 200, schema: apiKeyMetadataSchema, description: 'The revoked key' }, errors: ['VALIDATION_ERROR', 'NOT_FOUND'] }),
      },
      '/auth/api-keys/{key_id}/regenerate': {
        post: operation({ summary: 'New secret for the same key id; the old one stops working at once', tier: 'L1', path: { key_id: KEY_ID }, ok: { status: 200, schema: issuedApiKeySchema, description: '{key_id, secret}' }, errors: ['VALIDATION_ERROR', 'NOT_FOUND'] }),
      },
      '/auth/ws-token': {
        post: operation({ summary: 'Single-use WebSocket token (60 s)', tier: 'L2', ok: { status: 200, schema: wsTokenSchema, description: '{token, expires_in}' }, errors: ['VALIDATION_ERROR'] }),
      },
      '/orders': {
        post: operation({
          summary: 'Place 1..15 signed orders',
          tier: 'L2',
          permission: 'trade',
          body: placeOrdersBodySchema,
          headers: { 'fs-idempotency-key': { schema: { type: 'string', maxLength: 128 }, description: 'Optional idempotency key' } },
          ok: { status: 200, schema: placeOrdersResponseSchema, description: 'One result per order, in request order' },
          errors: ['VALIDATION_ERROR', 'BATCH_SIZE_EXCEEDED', 'IDEMPOTENCY_CONFLICT', 'SERVICE_DEGRADED', 'RATE_LIMITED'],
        }),
        get: operation({ summary: "The wallet's orders, newest first", tier: 'L2', permission: 'read', query: listOrdersQuerySchema, ok: { status: 200, schema: orderPageSchema, description: 'Page of Order record' }, errors: ['VALIDATION_ERROR', 'NOT_FOUND'] }),
      },
      '/orders/{order_hash}': {
        get: operation({ summary: 'One order of the wallet', tier: 'L2', permission: 'read', path: orderHashPath, ok: { status: 200, schema: orderRecordSchema, description: 'Order record' }, errors: ['VALIDATION_ERROR', 'ORDER_NOT_FOUND'] }),
      },
      '/orders/cancel': {
        post: operation({ summary: 'Cancel by hashes, client_order_ids, filter or all', tier: 'L2', permission: 'trade', body: cancelOrdersBodySchema, ok: { status: 200, schema: cancelOrdersResponseSchema, description: 'Cancelled and not cancelled' }, errors: ['VALIDATION_ERROR', 'SERVICE_DEGRADED'] }),
      },
      '/orders/{order_hash}/cancel-onchain': {
        post: operation({ summary: 'Calldata to cancel an order on chain', tier: 'L2', permission: 'trade', path: orderHashPath, ok: { status: 200, schema: cancelOnchainResponseSchema, description: '{to, data, chain_id}' }, errors: ['VALIDATION_ERROR', 'ORDER_NOT_FOUND', 'ORDER_NOT_OPEN', 'ORDER_ALREADY_FILLED'] }),
      },
      '/fills': {
        get: operation({ summary: "The wallet's fills, newest first", tier: 'L2', permission: 'read', query: listFillsQuerySchema, ok: { status: 200, schema: fillPageSchema, description: 'Page of Fill' }, errors: ['VALIDATION_ERROR', 'NOT_FOUND'] }),
      },
      '/positions': {
        get: operation({ summary: "The wallet's CLOB positions", tier: 'L2', permission: 'read', query: listPositionsQuerySchema, ok: { status: 200, schema: positionPageSchema, description: 'Page of Position' }, errors: ['VALIDATION_ERROR', 'NOT_FOUND'] }),
      },
      '/balances': {
        get: operation({ summary: 'What the wallet holds, has reserved and can still commit, per collateral and token', tier: 'L2', permission: 'read', query: balancesQuerySchema, ok: { status: 200, schema: balancesResponseSchema, description: 'The numbers INSUFFICIENT_BALANCE is decided from' }, errors: ['VALIDATION_ERROR', 'NOT_FOUND'] }),
      },
      '/heartbeat': {
        post: operation({ summary: "Arm or reset the wallet's dead-man switch (timeout_s 5..300; 0 disarms)", tier: 'L2', permission: 'trade', body: heartbeatBodySchema, ok: { status: 200, schema: heartbeatResponseSchema, description: '{armed, expires_at}' }, errors: ['VALIDATION_ERROR'] }),
      },
    },
  };
}
