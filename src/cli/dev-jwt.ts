/**
 * A development JWT for `predex login` on the local stack: HS256 with the secret `npm start`
 * keeps in <DATA_DIR>/dev-secrets.json (or AUTH_JWT_SECRET), as `npm run dev:jwt` makes it.
 */
import { createHmac } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { PredexError } from '../client';

const b64url = (value: string | Buffer) => Buffer.from(value).toString('base64url');

export function devJwtSecret(env: NodeJS.ProcessEnv): string {
  if (env.AUTH_JWT_SECRET) return env.AUTH_JWT_SECRET;
  const file = join(resolve(env.DATA_DIR ?? './data'), 'dev-secrets.json');
  try {
    return (JSON.parse(readFileSync(file, 'utf8')) as { AUTH_JWT_SECRET: string }).AUTH_JWT_SECRET;
  } catch {
    throw new PredexError({ code: 'CLIENT_INPUT', message: `no development JWT secret: ${file} is missing (run from the folder where npm start runs, set DATA_DIR, or pass --jwt)` });
  }
}

export function devJwt(wallet: string, secret: string, nowSeconds = Math.floor(Date.now() / 1000)): string {
  const head = b64url(JSON.stringify({ alg: 'HS256', typ: 'JWT' }));
  const body = b64url(JSON.stringify({ wallet_address: wallet.toLowerCase(), iat: nowSeconds, exp: nowSeconds + 3600 }));
  const signature = createHmac('sha256', secret).update(`${head}.${body}`).digest('base64url');
  return `${head}.${body}.${signature}`;
}
