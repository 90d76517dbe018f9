/** Misuse of the engine API (bad input, unknown state); never a normal market outcome. */
export type EngineErrorCode =
  | 'INVALID_PRICE'
  | 'INVALID_SIZE'
  | 'INVALID_ORDER'
  | 'DRIFTED_AMOUNTS'
  | 'DUPLICATE_ORDER'
  | 'INVALID_TIME'
  | 'INVALID_SNAPSHOT'
  | 'INVARIANT_VIOLATED';

export class EngineError extends Error {
  readonly code: EngineErrorCode;
  readonly details?: Record<string, unknown>;

  constructor(code: EngineErrorCode, message: string, details?: Record<string, unknown>, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'EngineError';
    this.code = code;
    this.details = details;
  }
}

export function isEngineError(error: unknown): error is EngineError {
  return error instanceof EngineError;
}
