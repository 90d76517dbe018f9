/**
 * Where `predex login` keeps what later commands need: the API's URL, the wallet's key (it signs
 * orders), the API key pair and, for AMM trades, a platform key pair and the chain's RPC URL. One JSON file in the user's config folder, readable by the user only.
 */
import { chmodSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';

export interface StoredCredentials {
  url: string;
  wallet: string;
  private_key: `0x${string}`;
  api_key: string;
  api_secret: string;
  /** Platform key pair for AMM trades through /trade (local stack: issued at login). */
  platform_key?: string;
  platform_secret?: string;
  /** The chain's JSON-RPC endpoint, where the wallet sends pool transactions. */
  rpc_url?: string;
}

export function credentialsPath(env: NodeJS.ProcessEnv = process.env): string {
  const dir = env.PREDEX_CONFIG_DIR ?? join(env.XDG_CONFIG_HOME ?? join(homedir(), '.config'), 'predex');
  return join(dir, 'credentials.json');
}

export function readCredentials(env: NodeJS.ProcessEnv = process.env): StoredCredentials | undefined {
  try {
    return JSON.parse(readFileSync(credentialsPath(env), 'utf8')) as StoredCredentials;
  } catch {
    return undefined;
  }
}

export function writeCredentials(credentials: StoredCredentials, env: NodeJS.ProcessEnv = process.env): string {
  const file = credentialsPath(env);
  mkdirSync(join(file, '..'), { recursive: true, mode: 0o700 });
  writeFileSync(file, `${JSON.stringify(credentials, null, 2)}\n`, { mode: 0o600 });
  chmodSync(file, 0o600); // an existing file keeps its mode on write
  return file;
}
