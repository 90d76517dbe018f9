/**
 * A development JWT for `predex login` on the local stack: HS256 with the secret `npm start`
 * keeps in <DATA_DIR>/dev-secrets.json (or AUTH_JWT_SECRET), as `npm run dev:jwt` makes it.
 */
import { createHmac } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { PredexError } from '../client';

const b64url = (value: string | Buffer) => Buffer.from(value).toString('base64url');

const secretsFile = (env: NodeJS.ProcessEnv) => join(resolve(env.DATA_DIR ?? './data'), 'dev-secrets.json');

/** A secret from the environment, else from the file `npm start` keeps; undefined when neither has it. */
export function devSecret(env: NodeJS.ProcessEnv, name: 'AUTH_JWT_SECRET' | 'ADMIN_TOKEN'): string | undefined {
  if (env[name]) return env[name];
  try {
    return (JSON.parse(readFileSync(secretsFile(env), 'utf8')) as Record<string, string | undefined>)[name];
  } catch {
    return undefined;
  }
}

export function devJwtSecret(env: NodeJS.ProcessEnv): string {
  const secret = devSecret(env, 'AUTH_JWT_SECRET');
  if (secret) return secret;
  throw new PredexError({ code: 'CLIENT_INPUT', message: `no development JWT secret: ${secretsFile(env)} is missing (run from the folder where npm start runs, set DATA_DIR, or pass --jwt)` });
}

export function devJwt(wallet: string, secret: string, nowSeconds = Math.floor(Date.now() / 1000)): string {
  const head = b64url(JSON.stringify({ alg: 'HS256', typ: 'JWT' }));
  const body = b64url(JSON.stringify({ wallet_address: wallet.toLowerCase(), iat: nowSeconds, exp: nowSeconds + 3600 }));
  const signature = createHmac('sha256', secret).update(`${head}.${body}`).digest('base64url');
  return `${head}.${body}.${signature}`;
}
