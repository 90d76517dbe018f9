/**
 * Counts and times every HTTP request under its route template (from the OpenAPI document, so
 * the label set is the API's list of paths, never raw paths with hashes in them) and, for an
 * error, the envelope's code.
 */
import type { NextFunction, Request, Response } from 'express';
import { buildOpenApiDocument } from './openapi/openapi-document';
import { httpDuration, httpRequests, secondsSince } from '../metrics/metrics';

/** Paths outside /v1's document: health, metrics, docs, the market page and the operators' surface. */
const ROOT_TEMPLATES = [
  '/healthz', '/readyz', '/metrics', '/docs', '/v1/openapi.json', '/admin/markets', '/admin/markets/{condition_id}/status',
  '/', '/web-config.json', '/web/{file}',
];

interface Template {
  route: string;
  pattern: RegExp;
  params: number;
}

function compile(route: string): Template {
  const source = route.split('/').map((part) => (part.startsWith('{') ? '[^/]+' : part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'))).join('/');
  return { route, pattern: new RegExp(`^${source}/?$`), params: (route.match(/\{/g) ?? []).length };
}

let templates: Template[] | undefined;
function allTemplates(): Template[] {
  if (!templates) {
    // Paths with their own server (the /trade API at the root) are not under /v1.
    const items = Object.entries((buildOpenApiDocument() as { paths: Record<string, { servers?: { url: string }[] }> }).paths);
    const paths = items.map(([p, item]) => (item.servers?.[0]?.url === '/' ? p : `/v1${p}`));
    // Literal segments first: /v1/orders/cancel is not /v1/orders/{order_hash}.
    templates = [...paths, ...ROOT_TEMPLATES].map(compile).sort((a, b) => a.params - b.params);
  }
  return templates;
}

/** Labels of paths seen lately: a polled path (a quote) is not matched against every template each time. */
const seen = new Map<string, string>();
const SEEN_MAX = 10_000;

/** The route template a path is served under, or "other" (404s, probes of unknown paths). */
export function routeOf(path: string): string {
  let route = seen.get(path);
  if (route === undefined) {
    route = allTemplates().find((t) => t.pattern.test(path))?.route ?? 'other';
    if (seen.size >= SEEN_MAX) seen.clear(); // paths with ids in them: bounded, not a leak
    seen.set(path, route);
  }
  return route;
}

export function httpMetrics() {
  return (req: Request, res: Response, next: NextFunction): void => {
    const started = performance.now();
    let code = '';
    const json = res.json.bind(res);
    res.json = (body?: unknown) => {
      if (res.statusCode >= 400 && body && typeof (body as { code?: unknown }).code === 'string') code = (body as { code: string }).code;
      return json(body);
    };
    res.once('finish', () => {
      const route = routeOf(req.originalUrl.split('?')[0]);
      const status = String(res.statusCode);
      httpRequests.inc({ method: req.method, route, status, code });
      httpDuration.observe({ method: req.method, route, status }, secondsSince(started));
    });
    next();
  };
}
