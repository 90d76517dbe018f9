import type { Config } from '../config';
import { temporalUiUrlFor, temporalUiUrlOf } from '../config/temporal-ui-url';

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

/** The page's settings from the configuration; the Temporal UI link follows temporalUiUrlOf's rules. */
export function webSettingsOf(config: Pick<Config, 'CHAIN_ID' | 'TEMPORAL_NAMESPACE' | 'TEMPORAL_ADDRESS' | 'TEMPORAL_UI_URL' | 'TEMPORAL_UI_PORT' | 'HOST'>): WebSettings {
  return {
    chainId: config.CHAIN_ID,
    temporalNamespace: config.TEMPORAL_NAMESPACE,
    temporalUiUrl: temporalUiUrlOf(config),
  };
}

/** The page's configuration as one request sees it (a UI on every interface is named by the host the browser used). */
export function webConfigOf(settings: WebSettings, wsPath: string, requestHost: string): WebConfig {
  return {
    chain_id: settings.chainId,
    ws_path: wsPath,
    temporal_namespace: settings.temporalNamespace,
    temporal_ui_url: temporalUiUrlFor(settings.temporalUiUrl, requestHost) ?? null,
  };
}
