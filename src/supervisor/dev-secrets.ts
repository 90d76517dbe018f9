import { randomBytes } from 'node:crypto';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/** The secrets the service needs that a newcomer has not configured yet. */
const DEV_SECRET_NAMES = ['AUTH_JWT_SECRET', 'API_KEY_PEPPER', 'ADMIN_TOKEN'] as const;
export type DevSecrets = Record<(typeof DEV_SECRET_NAMES)[number], string>;

export function devSecretsFile(dataDir: string): string {
  return join(dataDir, 'dev-secrets.json');
}

/**
 * For the embedded development setup only: secrets the operator left unset are generated once and
 * kept in DATA_DIR/dev-secrets.json (mode 0600, beside the embedded databases they protect), so
 * that API keys hashed with the pepper keep working after a restart. Production sets all three in
 * the environment, and then nothing is generated or written. Values are never printed.
 */
export function ensureDevSecrets(dataDir: string, env: NodeJS.ProcessEnv): { env: NodeJS.ProcessEnv; generated: string[] } {
  const missing = DEV_SECRET_NAMES.filter((name) => !env[name]);
  if (missing.length === 0) return { env, generated: [] };
  const file = devSecretsFile(dataDir);
  const stored: Partial<DevSecrets> = existsSync(file) ? (JSON.parse(readFileSync(file, 'utf8')) as Partial<DevSecrets>) : {};
  let changed = false;
  for (const name of missing) {
    if (!stored[name]) {
      stored[name] = randomBytes(32).toString('base64url');
      changed = true;
    }
  }
  if (changed) writeFileSync(file, JSON.stringify(stored, null, 2), { mode: 0o600 });
  const next = { ...env };
  for (const name of missing) next[name] = stored[name];
  return { env: next, generated: missing };
}
