import { ERROR_TABLE, type ErrorCode } from '../errors';

/** One inline rejection item of POST /v1/orders (decisions section 5). */
export interface OrderRejection {
  error: { code: ErrorCode; message: string; details?: Record<string, unknown> };
}

export function reject(code: ErrorCode, message?: string, details?: Record<string, unknown>): OrderRejection {
  const error: OrderRejection['error'] = { code, message: message ?? ERROR_TABLE[code].message };
  if (details) error.details = details;
  return { error };
}
