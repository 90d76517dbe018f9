import { ERROR_TABLE, ErrorCode } from './error-codes';

/** The spec's error envelope, returned by every non-2xx response. */
export interface ErrorEnvelope {
  correlation_id: string;
  code: ErrorCode;
  message: string;
  status_code: number;
  timestamp: string;
  path: string;
  details?: Record<string, unknown>;
}

export function buildErrorEnvelope(input: {
  code: ErrorCode;
  message?: string;
  correlationId: string;
  path: string;
  details?: Record<string, unknown>;
  now?: Date;
}): ErrorEnvelope {
  const envelope: ErrorEnvelope = {
    correlation_id: input.correlationId,
    code: input.code,
    message: input.message ?? ERROR_TABLE[input.code].message,
    status_code: ERROR_TABLE[input.code].status,
    timestamp: (input.now ?? new Date()).toISOString(),
    path: input.path,
  };
  if (input.details) envelope.details = input.details;
  return envelope;
}
