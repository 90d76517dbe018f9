import { pinoHttp } from 'pino-http';
import type { Logger } from '../../logging/logger';

/** One log line per request, with its correlation id, status and latency. */
export function requestLog(logger: Logger) {
  return pinoHttp({
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
}
