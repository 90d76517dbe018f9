import type { ErrorEnvelope } from './types';

/** Codes the client raises itself: failures that never got a server answer, and CHAIN_ERROR for a wallet transaction the chain refused. */
export type LocalErrorCode = 'CLIENT_INPUT' | 'UNREACHABLE' | 'BAD_RESPONSE' | 'TIMEOUT' | 'CHAIN_ERROR';

/**
 * Every failure the client reports. Server errors carry the server's envelope as is (`code`,
 * `message`, `status_code`, `correlation_id`, `details`); the client's own have `status_code` 0 and
 * correlation id `local`.
 */
export class PredexError extends Error {
  readonly code: ErrorEnvelope['code'] | LocalErrorCode;
  readonly status_code: number;
  readonly correlation_id: string;
  readonly details?: Record<string, unknown>;
  readonly path?: string;

  constructor(
    fields: { code: PredexError['code']; message: string; status_code?: number; correlation_id?: string; details?: Record<string, unknown>; path?: string },
    options?: { cause?: unknown },
  ) {
    super(fields.message, options);
    this.name = 'PredexError';
    this.code = fields.code;
    this.status_code = fields.status_code ?? 0;
    this.correlation_id = fields.correlation_id ?? 'local';
    this.details = fields.details;
    this.path = fields.path;
  }

  /** True for a 429 or 503 answer, or no answer at all: the same request may succeed later. */
  get retryable(): boolean {
    return this.code === 'UNREACHABLE' || this.status_code === 429 || this.status_code === 503;
  }
}

export function inputError(message: string, details?: Record<string, unknown>): PredexError {
  return new PredexError({ code: 'CLIENT_INPUT', message, details });
}

export function isErrorEnvelope(value: unknown): value is ErrorEnvelope {
  const v = value as Partial<ErrorEnvelope> | null;
  return typeof v === 'object' && v !== null && typeof v.code === 'string' && typeof v.message === 'string' && typeof v.status_code === 'number';
}
