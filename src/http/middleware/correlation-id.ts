import { randomUUID } from 'node:crypto';
import { NextFunction, Request, Response } from 'express';

const HEADER = 'x-correlation-id';
const SAFE = /^[A-Za-z0-9._:-]{1,128}$/;

declare module 'express-serve-static-core' {
  interface Request {
    /** The caller's x-correlation-id, or 'unknown' when absent (as the spec's envelope requires). */
    correlationId: string;
    /** A server-side id for log lines, always unique. */
    requestId: string;
  }
}

/** Honours and echoes `x-correlation-id`; values that could inject into logs are not trusted. */
export function correlationId(req: Request, res: Response, next: NextFunction): void {
  const given = req.header(HEADER);
  req.correlationId = given && SAFE.test(given) ? given : 'unknown';
  req.requestId = randomUUID();
  res.setHeader(HEADER, req.correlationId);
  next();
}
