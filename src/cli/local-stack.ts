/**
 * What a trader's machine learns about the local stack `npm start` runs: the embedded chain's RPC
 * URL (from its deployment file) and a platform key for AMM trades, issued with the operator token
 * that stack keeps in its dev secrets. Other deployments give both by flag or environment.
 */
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { HttpTransport } from '../client/http-transport';
import { devSecret } from './dev-jwt';

export function localRpcUrl(env: NodeJS.ProcessEnv): string | undefined {
  try {
    return (JSON.parse(readFileSync(join(resolve(env.DATA_DIR ?? './data'), 'chain', 'deployment.json'), 'utf8')) as { rpcUrl?: string }).rpcUrl;
  } catch {
    return undefined;
  }
}

/** Issues a platform key when this machine holds the operator token (ADMIN_TOKEN or the dev secrets); else undefined. */
export async function localPlatformKey(baseUrl: string, env: NodeJS.ProcessEnv, name: string): Promise<{ platformKey: string; platformSecret: string } | undefined> {
  const token = devSecret(env, 'ADMIN_TOKEN');
  if (!token) return undefined;
  // A token of another stack, or /admin turned off: the login still stands, without AMM trades.
  const issued = await new HttpTransport({ baseUrl }).request<{ key_id: string; secret: string }>('POST', '/admin/platform-keys', {
    tier: 'L0', prefix: '', headers: { 'x-admin-token': token }, body: { name },
  }).catch(() => undefined);
  return issued && { platformKey: issued.key_id, platformSecret: issued.secret };
}
