// Prints a development JWT (HS256) for a wallet, signed with the embedded setup's secret, so a
// newcomer can call L1/L2 routes at once: `npm run dev:jwt -- 0xYourWallet`.
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { SignJWT } from 'jose';
import { devSecretsFile } from '../src/supervisor/dev-secrets';

async function main(): Promise<void> {
  const wallet = process.argv[2];
  if (!wallet || !/^0x[0-9a-fA-F]{40}$/.test(wallet)) throw new Error('usage: npm run dev:jwt -- 0x<40 hex wallet address>');
  const secret =
    process.env.AUTH_JWT_SECRET ??
    (JSON.parse(readFileSync(devSecretsFile(resolve(process.env.DATA_DIR ?? './data')), 'utf8')) as { AUTH_JWT_SECRET: string }).AUTH_JWT_SECRET;
  let jwt = new SignJWT({ wallet_address: wallet.toLowerCase() }).setProtectedHeader({ alg: 'HS256' }).setIssuedAt().setExpirationTime('12h');
  if (process.env.AUTH_JWT_ISSUER) jwt = jwt.setIssuer(process.env.AUTH_JWT_ISSUER);
  if (process.env.AUTH_JWT_AUDIENCE) jwt = jwt.setAudience(process.env.AUTH_JWT_AUDIENCE);
  process.stdout.write(`${await jwt.sign(new TextEncoder().encode(secret))}\n`);
}

main().catch((error: unknown) => {
  process.stderr.write(`${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
});
