import type { Config } from './load-config';

/** Hosts that mean "every interface": no one address a browser or an operator can reach. */
const WILDCARD_HOSTS = new Set(['0.0.0.0', '[::]']);

const hostForUrl = (host: string) => (host.includes(':') && !host.startsWith('[') ? `[${host}]` : host);

/**
 * The Temporal Web UI base URL that links point at: TEMPORAL_UI_URL, or the embedded dev server's
 * UI when this process runs beside it (no external TEMPORAL_ADDRESS; under `npm start` the
 * supervisor passes the UI it started as TEMPORAL_UI_URL). Undefined: there is no UI to link.
 */
export function temporalUiUrlOf(config: Pick<Config, 'TEMPORAL_ADDRESS' | 'TEMPORAL_UI_URL' | 'TEMPORAL_UI_PORT' | 'HOST'>): string | undefined {
  const embeddedUi = !config.TEMPORAL_ADDRESS && config.TEMPORAL_UI_PORT ? `http://${hostForUrl(config.HOST)}:${config.TEMPORAL_UI_PORT}` : undefined;
  return (config.TEMPORAL_UI_URL ?? embeddedUi)?.replace(/\/+$/, '');
}

/**
 * The UI base URL as one request sees it. A UI listening on every interface has no one address to
 * name, so it is named by the host the request reached this server by.
 */
export function temporalUiUrlFor(uiUrl: string | undefined, requestHost: string): string | undefined {
  if (!uiUrl) return undefined;
  const url = new URL(uiUrl);
  if (!WILDCARD_HOSTS.has(url.hostname)) return uiUrl;
  url.hostname = hostForUrl(requestHost);
  return url.toString().replace(/\/+$/, '');
}
