import { ERROR_TABLE, ErrorCode } from './error-codes';

/** A failure the service means to report to its caller, with a code from the error table. */
export class AppError extends Error {
  readonly code: ErrorCode;
  readonly details?: Record<string, unknown>;

  constructor(code: ErrorCode, message?: string, details?: Record<string, unknown>, options?: { cause?: unknown }) {
    super(message ?? ERROR_TABLE[code].message, options);
    this.name = 'AppError';
    this.code = code;
    this.details = details;
  }

  get status(): number {
    return ERROR_TABLE[this.code].status;
  }

  get retryable(): boolean {
    return ERROR_TABLE[this.code].retryable;
  }
}

export function isAppError(error: unknown): error is AppError {
  return error instanceof AppError;
}
