import { AppError } from './app-error';

/**
 * The driver's errors for a database it cannot reach (by class name: the driver may be loaded
 * more than once, so `instanceof` would miss some), and Mongoose's for a command that waited for a
 * connection that never came.
 */
const DATABASE_UNREACHABLE = new Set([
  'MongoServerSelectionError',
  'MongoNetworkError',
  'MongoNetworkTimeoutError',
  'MongoNotConnectedError',
  'MongoTopologyClosedError',
  'MongoPoolClearedError',
]);

/** A database that does not answer, as the spec's `SERVICE_DEGRADED` (503, retryable); else undefined. */
export function unavailableDatabase(error: unknown): AppError | undefined {
  const e = error as { name?: unknown; message?: unknown } | null;
  const unreachable = typeof e?.name === 'string' && DATABASE_UNREACHABLE.has(e.name);
  const buffering = e?.name === 'MongooseError' && typeof e.message === 'string' && e.message.includes('buffering timed out');
  return unreachable || buffering ? new AppError('SERVICE_DEGRADED', 'The database is unavailable; retry', undefined, { cause: error }) : undefined;
}

/**
 * Malformed requests that Express or its body parsers refuse before any handler runs, with a 4xx
 * `status` (http-errors): an undecodable `%` sequence in the path (a URIError), a body whose
 * `Content-Encoding` does not decode. They are the client's, so 422 `VALIDATION_ERROR`, not 500.
 */
export function malformedRequest(error: unknown): AppError | undefined {
  const e = error as { status?: unknown; statusCode?: unknown } | null;
  const status = typeof e?.status === 'number' ? e.status : e?.statusCode;
  if (typeof status !== 'number' || status < 400 || status >= 500) return undefined;
  if (error instanceof URIError) return new AppError('VALIDATION_ERROR', 'Malformed percent-encoding in the URL');
  return new AppError('VALIDATION_ERROR', 'Malformed request');
}
