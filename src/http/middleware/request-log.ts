import type { RequestHandler } from 'express';
import { pinoHttp } from 'pino-http';
import type { Logger } from '../../logging/logger';

/**
 * One log line per request, with its correlation id, status and latency, at `info` (errors too:
 * no custom level). Below that level pino-http would still build a child logger per request and
 * write nothing, ~15% of the API's CPU under a quote load, so it is skipped then (asked per
 * request: the level may change while the process runs).
 */
export function requestLog(logger: Logger): RequestHandler {
  const log = pinoHttp({
    logger,
    genReqId: (req) => (req as unknown as { requestId?: string }).requestId ?? 'unknown',
    customProps: (req) => ({ correlationId: (req as unknown as { correlationId?: string }).correlationId }),
    serializers: {
      req: (req: { method: string; url: string }) => ({ method: req.method, url: req.url }),
      res: (res: { statusCode: number }) => ({ statusCode: res.statusCode }),
    },
    customSuccessMessage: (req, res, ms) => `${req.method} ${req.url} ${res.statusCode} ${Math.round(ms)}ms`,
    customErrorMessage: (req, res) => `${req.method} ${req.url} ${res.statusCode}`,
  });
  return (req, res, next) => (logger.isLevelEnabled('info') ? log(req, res, next) : next());
}
