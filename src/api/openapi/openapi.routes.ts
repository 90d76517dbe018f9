import { Router } from 'express';
import { DOCS_PAGE } from './docs-page';
import { buildOpenApiDocument } from './openapi-document';

/** GET /v1/openapi.json (mounted under /v1). */
export function openApiRoutes(): Router {
  const router = Router();
  const document = buildOpenApiDocument();
  router.get('/openapi.json', (_req, res) => {
    res.json(document);
  });
  return router;
}

/** GET /docs (mounted at the root). The page's script is inline, so CSP allows only that. */
export function docsRoutes(): Router {
  const router = Router();
  router.get('/docs', (_req, res) => {
    res.setHeader('Content-Security-Policy', "default-src 'self'; script-src 'unsafe-inline'; style-src 'unsafe-inline'");
    res.type('html').send(DOCS_PAGE);
  });
  return router;
}
