import type { ApiConfig } from '../config';

/**
 * Where the API and worker processes find their servers. The supervisor passes the external URIs
 * through; when a process runs on its own, it looks for the embedded servers on their ports.
 */
export function mongoUriOf(config: ApiConfig): string {
  return config.MONGODB_URI ?? `mongodb://${config.HOST}:${config.MONGODB_PORT}/`;
}

export function temporalAddressOf(config: ApiConfig): string {
  return config.TEMPORAL_ADDRESS ?? `${config.HOST}:${config.TEMPORAL_PORT}`;
}
