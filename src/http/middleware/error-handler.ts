import { NextFunction, Request, Response } from 'express';
import { AppError, buildErrorEnvelope, isAppError, malformedRequest, unavailableDatabase } from '../../errors';
import type { Logger } from '../../logging/logger';

/** Express's body parser reports malformed JSON and oversized bodies with these `type`s. */
function fromBodyParser(error: unknown): AppError | undefined {
  const e = error as { type?: string; status?: number };
  if (e?.type === 'entity.parse.failed') return new AppError('VALIDATION_ERROR', 'Malformed JSON body');
  if (e?.type === 'entity.too.large') return new AppError('VALIDATION_ERROR', 'Request body is too large');
  if (e?.type === 'encoding.unsupported' || e?.type === 'charset.unsupported') {
    return new AppError('VALIDATION_ERROR', 'Unsupported body encoding');
  }
  return undefined;
}

/** The one place an HTTP error becomes the spec's envelope. Internals never reach the client. */
export function errorHandler(logger: Logger) {
  return (error: unknown, req: Request, res: Response, next: NextFunction): void => {
    if (res.headersSent) {
      next(error);
      return;
    }
    const appError = isAppError(error) ? error : fromBodyParser(error) ?? unavailableDatabase(error) ?? malformedRequest(error);
    if (!appError) {
      logger.error({ err: error, correlationId: req.correlationId, requestId: req.requestId }, 'unhandled error');
    } else if (appError.code === 'SERVICE_DEGRADED' && !isAppError(error)) {
      logger.warn({ err: error, correlationId: req.correlationId, requestId: req.requestId }, 'database unavailable');
    }
    const final = appError ?? new AppError('INTERNAL_ERROR');
    const envelope = buildErrorEnvelope({
      code: final.code,
      message: final.message,
      correlationId: req.correlationId ?? 'unknown',
      path: req.originalUrl.split('?')[0],
      details: final.details,
    });
    if (final.code === 'RATE_LIMITED' && typeof final.details?.retry_after_s === 'number') {
      res.setHeader('Retry-After', String(final.details.retry_after_s));
    }
    res.status(envelope.status_code).json(envelope);
  };
}

export function notFoundHandler(req: Request, _res: Response, next: NextFunction): void {
  next(new AppError('NOT_FOUND', `No route for ${req.method} ${req.path}`));
}
