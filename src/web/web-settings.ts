import type { Config } from '../config';

/** What the market page reads from the server's configuration (served as /web-config.json). */
export interface WebSettings {
  chainId: number;
  temporalNamespace: string;
  /** Base URL of the Temporal Web UI the page links market workflows to; undefined: no link. */
  temporalUiUrl?: string;
}

/** The body of /web-config.json. */
export interface WebConfig {
  chain_id: number;
  ws_path: string;
  temporal_namespace: string;
  temporal_ui_url: string | null;
}

const WILDCARD_HOSTS = new Set(['0.0.0.0', '[::]']);

const hostForUrl = (host: string) => (host.includes(':') && !host.startsWith('[') ? `[${host}]` : host);

/**
 * TEMPORAL_UI_URL, or the embedded dev server's UI when this process runs beside it (no external
 * TEMPORAL_ADDRESS; under `npm start` the supervisor passes the UI it started as TEMPORAL_UI_URL).
 */
export function webSettingsOf(config: Pick<Config, 'CHAIN_ID' | 'TEMPORAL_NAMESPACE' | 'TEMPORAL_ADDRESS' | 'TEMPORAL_UI_URL' | 'TEMPORAL_UI_PORT' | 'HOST'>): WebSettings {
  const embeddedUi = !config.TEMPORAL_ADDRESS && config.TEMPORAL_UI_PORT ? `http://${hostForUrl(config.HOST)}:${config.TEMPORAL_UI_PORT}` : undefined;
  return {
    chainId: config.CHAIN_ID,
    temporalNamespace: config.TEMPORAL_NAMESPACE,
    temporalUiUrl: (config.TEMPORAL_UI_URL ?? embeddedUi)?.replace(/\/+$/, ''),
  };
}

/**
 * The page's configuration as one request sees it. A UI listening on every interface has no one
 * address to name, so it is named by the host the browser used to reach the API.
 */
export function webConfigOf(settings: WebSettings, wsPath: string, requestHost: string): WebConfig {
  let ui = settings.temporalUiUrl ?? null;
  if (ui) {
    const url = new URL(ui);
    if (WILDCARD_HOSTS.has(url.hostname)) {
      url.hostname = hostForUrl(requestHost);
      ui = url.toString().replace(/\/+$/, '');
    }
  }
  return { chain_id: settings.chainId, ws_path: wsPath, temporal_namespace: settings.temporalNamespace, temporal_ui_url: ui };
}
