import { PredexError } from '../client';

/** What a trader can do about each error, printed under the server's code and message. */
const HINTS: Record<string, string> = {
  AUTH_MISSING: 'run `predex login --key 0x<private key>` first (AMM trades elsewhere than the local stack: add --platform-key and --platform-secret from its operator)',
  AUTH_INVALID: 'your API key or JWT was refused: run `predex login` again',
  AUTH_REVOKED: 'this API key was revoked: run `predex login` again for a new one',
  FORBIDDEN: 'the API key lacks a permission: log in again (it asks for read and trade)',
  NOT_FOUND: 'check the market id with `predex markets`',
  ORDER_NOT_FOUND: 'check the order hash with `predex orders`',
  MARKET_NOT_ACTIVE: 'the market is not OPEN: see `predex markets --status all`',
  MARKET_NOT_CLOB: 'this market trades against a pool, not the order book',
  INSUFFICIENT_BALANCE: 'fund the wallet (local chain: `npm run faucet -- <wallet> 1000 --key <key>`) or free reserves with `predex cancel`; see `predex balances`',
  ORDER_EXPIRED: 'give an expiration in the future (--expires seconds from now)',
  ORDER_ALREADY_FILLED: 'nothing to cancel: the order is filled',
  ORDER_NOT_OPEN: 'nothing to cancel: the order already ended',
  INVALID_SIGNATURE: 'the wallet key does not sign for this account: run `predex login --key` with the right key',
  WALLET_MISMATCH: 'the signing key and the logged-in wallet differ: run `predex login` again',
  PRICE_OUT_OF_RANGE: 'use a price that is a multiple of 0.01 between 0.01 and 1',
  SIZE_TOO_SMALL: 'use a size of at least 0.1 shares',
  INVALID_ORDER: 'check the order\'s fields against the message above',
  RATE_LIMITED: 'slow down and try again in a few seconds',
  SERVICE_DEGRADED: 'the exchange is not healthy right now: try again shortly',
  INTERNAL_ERROR: 'try again; if it persists, report the correlation id',
  VALIDATION_ERROR: 'check the command\'s arguments (`predex help`)',
  CLIENT_INPUT: 'check the command\'s arguments (`predex help`)',
  UNREACHABLE: 'is the exchange running? start it with `npm start`, or pass --url',
  TIMEOUT: 'the order may still complete: follow it with `predex orders` or `predex watch`',
  CHAIN_ERROR: 'the chain refused the wallet\'s transaction: check its collateral, shares and gas (local chain: `npm run faucet`), then quote again',
  BAD_RESPONSE: 'the exchange answered something unexpected: report the message above',
  MARKET_NOT_RESOLVED: 'the market is not resolved yet: redeem after its resolution',
};

/** Exit codes: 0 done, 1 the exchange refused, 2 bad usage, 3 exchange unreachable or failing, 4 not logged in. */
export const EXIT = { OK: 0, REFUSED: 1, USAGE: 2, UNAVAILABLE: 3, AUTH: 4 } as const;

export function exitCodeOf(error: PredexError): number {
  if (error.code.startsWith('AUTH_')) return EXIT.AUTH;
  if (error.code === 'CLIENT_INPUT') return EXIT.USAGE;
  if (['UNREACHABLE', 'BAD_RESPONSE', 'TIMEOUT', 'SERVICE_DEGRADED', 'INTERNAL_ERROR'].includes(error.code)) return EXIT.UNAVAILABLE;
  return EXIT.REFUSED;
}

export function describeError(error: PredexError): string[] {
  const lines = [`error ${error.code}: ${error.message}`];
  const hint = HINTS[error.code];
  if (hint) lines.push(`  what to do: ${hint}`);
  if (error.correlation_id !== 'local') lines.push(`  correlation id: ${error.correlation_id}`);
  return lines;
}
