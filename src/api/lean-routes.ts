/**
 * Routes served ahead of Express's router and JSON parser: POST /v1/heartbeat comes once a second
 * from every market maker's bot, and walking every /v1 router's layers and body-parser's stream
 * machinery cost more CPU than the beat itself (docs/benchmarks.md, "Heartbeat load"). A lean
 * request still runs the app's own middleware functions (correlation id, metrics, request log,
 * per-address limit, the route's guard and handler) and its error handler, on Express's request
 * and response objects, so its answers are the Express route's. Anything unusual about the request
 * (another path spelling, no Content-Length, another content type or charset, an encoded body)
 * goes to Express unchanged.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { ErrorRequestHandler, Express, NextFunction, Request, RequestHandler, Response } from 'express';
import { AppError } from '../errors';
import type { Logger } from '../logging/logger';
import { errorHandler } from '../http/middleware/error-handler';
import { requestFront } from './app';

export interface LeanRoute {
  method: 'POST';
  /** The exact request target, e.g. `/v1/heartbeat` (no query string). */
  path: string;
  /** The route's own handlers (guard, then handler), as Express mounts them. */
  handlers: RequestHandler[];
}

export interface LeanRouteDeps {
  logger: Logger;
  /** The app's per-address limit: the same instance, so both paths count into one window. */
  limitByIp?: RequestHandler;
  /** The largest body Express's JSON parser takes; a larger one is Express's to refuse. */
  maxBodyBytes: number;
}

type Listener = (req: IncomingMessage, res: ServerResponse) => void;

/** `application/json`, optionally `; charset=utf-8`: what body-parser reads without decoding. */
const PLAIN_JSON = /^application\/json\s*(;\s*charset\s*=\s*"?utf-8"?\s*)?$/i;

function leanEligible(req: IncomingMessage, maxBodyBytes: number): boolean {
  const length = Number(req.headers['content-length']);
  return Number.isInteger(length) && length > 0 && length <= maxBodyBytes
    && req.headers['transfer-encoding'] === undefined
    && (req.headers['content-encoding'] === undefined || req.headers['content-encoding'] === 'identity')
    && PLAIN_JSON.test(req.headers['content-type'] ?? '');
}

/** Reads the body as body-parser's strict JSON does: an object or array, else "Malformed JSON body". */
const jsonBody: RequestHandler = (req, _res, next) => {
  const chunks: Buffer[] = [];
  req.on('data', (chunk: Buffer) => chunks.push(chunk));
  req.on('error', next);
  req.on('end', () => {
    const text = (chunks.length === 1 ? chunks[0] : Buffer.concat(chunks)).toString('utf8');
    const first = /^[\x20\x09\x0a\x0d]*(.)/.exec(text)?.[1];
    try {
      if (first !== '{' && first !== '[') throw new SyntaxError('not an object or array');
      req.body = JSON.parse(text) as unknown;
    } catch {
      next(new AppError('VALIDATION_ERROR', 'Malformed JSON body'));
      return;
    }
    next();
  });
};

/** Runs `handlers` in order as Express would: `next(error)` or a rejected promise goes to `onError`. */
function runChain(handlers: RequestHandler[], req: Request, res: Response, onError: (error: unknown) => void): void {
  let i = 0;
  const next: NextFunction = (error?: unknown) => {
    if (error !== undefined && error !== 'route' && error !== 'router') {
      onError(error);
      return;
    }
    const handler = handlers[i];
    i += 1;
    if (!handler) return;
    try {
      const result = handler(req, res, next) as unknown;
      if (result instanceof Promise) result.catch((e: unknown) => onError(e ?? new Error('rejected')));
    } catch (e) {
      onError(e);
    }
  };
  next();
}

/** The server's request listener: lean routes first, everything else to `app`. */
export function withLeanRoutes(app: Express, routes: LeanRoute[], deps: LeanRouteDeps): Listener {
  if (routes.length === 0) return app;
  const byTarget = new Map(routes.map((r) => [`${r.method} ${r.path}`, r]));
  const front: RequestHandler[] = [...requestFront(deps), jsonBody];
  const onError: ErrorRequestHandler = errorHandler(deps.logger);
  return (incoming, outgoing) => {
    const route = byTarget.get(`${incoming.method ?? ''} ${incoming.url ?? ''}`);
    if (!route || !leanEligible(incoming, deps.maxBodyBytes)) {
      app(incoming, outgoing);
      return;
    }
    // What app.handle and the router set up before the first middleware.
    Object.setPrototypeOf(incoming, app.request);
    Object.setPrototypeOf(outgoing, app.response);
    const req = incoming as Request;
    const res = outgoing as Response;
    req.res = res;
    res.req = req;
    res.locals ??= Object.create(null) as Record<string, unknown>;
    req.originalUrl = req.url;
    req.baseUrl = '';
    req.params = {};
    runChain([...front, ...route.handlers], req, res, (error) => {
      onError(error, req, res, () => {
        // Headers already sent: as Express's final handler, give up on the connection.
        req.socket.destroy();
      });
    });
  };
}
