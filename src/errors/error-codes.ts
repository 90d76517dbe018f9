/**
 * The one error table: every error the service can answer, with its HTTP status, whether a
 * client (or an activity retry policy) may retry it, and its default message. Express, socket
 * acks and Temporal activities all map errors through this table.
 */
export const ERROR_TABLE = {
  AUTH_MISSING: { status: 401, retryable: false, message: 'Required credentials are missing' },
  AUTH_INVALID: { status: 401, retryable: false, message: 'Credentials are invalid' },
  AUTH_REVOKED: { status: 401, retryable: false, message: 'API key has been revoked' },
  FORBIDDEN: { status: 403, retryable: false, message: 'Not allowed' },
  NOT_FOUND: { status: 404, retryable: false, message: 'Not found' },
  ORDER_NOT_FOUND: { status: 404, retryable: false, message: 'Order not found' },
  IDEMPOTENCY_CONFLICT: { status: 409, retryable: false, message: 'Idempotency key reused with a different body' },
  VALIDATION_ERROR: { status: 422, retryable: false, message: 'Request failed validation' },
  MARKET_NOT_ACTIVE: { status: 422, retryable: false, message: 'Market is not open for trading' },
  MARKET_NOT_CLOB: { status: 422, retryable: false, message: 'Market is not an order-book market' },
  MARKET_NOT_RESOLVED: { status: 422, retryable: false, message: 'Market is not resolved yet' },
  INSUFFICIENT_BALANCE: { status: 422, retryable: false, message: 'Insufficient balance or allowance' },
  ORDER_EXPIRED: { status: 422, retryable: false, message: 'Order is past its expiration' },
  ORDER_ALREADY_FILLED: { status: 422, retryable: false, message: 'Order is already filled' },
  ORDER_NOT_OPEN: { status: 422, retryable: false, message: 'Order is no longer open' },
  INVALID_SIGNATURE: { status: 422, retryable: false, message: 'EIP-712 signature verification failed' },
  INVALID_ORDER: { status: 422, retryable: false, message: 'Order is invalid' },
  WALLET_MISMATCH: { status: 422, retryable: false, message: 'Order signer differs from the authenticated wallet' },
  PRICE_OUT_OF_RANGE: { status: 422, retryable: false, message: 'Price must be in [0.01, 1.00] in 0.01 ticks' },
  SIZE_TOO_SMALL: { status: 422, retryable: false, message: 'Size is below the minimum of 0.1' },
  BATCH_SIZE_EXCEEDED: { status: 422, retryable: false, message: 'At most 15 orders per placement' },
  RATE_LIMITED: { status: 429, retryable: true, message: 'Rate limit exceeded' },
  INTERNAL_ERROR: { status: 500, retryable: true, message: 'Internal error' },
  SERVICE_DEGRADED: { status: 503, retryable: true, message: 'An upstream dependency is unavailable' },
} as const satisfies Record<string, { status: number; retryable: boolean; message: string }>;

export type ErrorCode = keyof typeof ERROR_TABLE;

export function isErrorCode(value: unknown): value is ErrorCode {
  return typeof value === 'string' && Object.prototype.hasOwnProperty.call(ERROR_TABLE, value);
}
