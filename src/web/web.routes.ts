import { join } from 'node:path';
import express, { Router, type Response } from 'express';
import { webConfigOf, type WebSettings } from './web-settings';

/** The page's files: copied beside the compiled code by the build (scripts/copy-web-assets.ts). */
export const WEB_ASSETS_DIR = join(__dirname, 'public');

/**
 * Everything the page loads comes from this origin: its own files, the socket.io client that the
 * gateway serves, REST and the socket. Nothing inline, so the policy allows no inline code.
 */
const CONTENT_SECURITY_POLICY = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self'",
  "connect-src 'self'",
  "img-src 'self' data:",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
].join('; ');

function pageHeaders(res: Response): void {
  res.setHeader('Content-Security-Policy', CONTENT_SECURITY_POLICY);
  res.setHeader('X-Content-Type-Options', 'nosniff');
  // Revalidated on every load (ETag): a new version is seen at once, an unchanged file costs a 304.
  res.setHeader('Cache-Control', 'no-cache');
}

/** GET / (the live market page), its files under /web/, and /web-config.json. */
export function webRoutes(settings: WebSettings, wsPath: string): Router {
  const router = Router();
  router.get('/', (_req, res) => {
    pageHeaders(res);
    res.sendFile(join(WEB_ASSETS_DIR, 'index.html'));
  });
  router.get('/web-config.json', (req, res) => {
    res.setHeader('Cache-Control', 'no-cache');
    res.json(webConfigOf(settings, wsPath, req.hostname));
  });
  router.use('/web', express.static(WEB_ASSETS_DIR, { index: false, redirect: false, setHeaders: pageHeaders }));
  return router;
}
