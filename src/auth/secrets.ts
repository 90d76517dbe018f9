import { createHmac, randomBytes, randomUUID, timingSafeEqual } from 'node:crypto';

/**
 * Secrets (API-key secrets, WebSocket tokens) are 32 random bytes in base64url. Only
 * HMAC-SHA256(pepper, secret) is stored: a database leak without the server's pepper yields
 * nothing usable, and comparisons of the fixed-length digests are constant time.
 */
export function newSecret(): string {
  return randomBytes(32).toString('base64url');
}

export function newKeyId(): string {
  return randomUUID();
}

export function hashSecret(pepper: string, secret: string): string {
  return createHmac('sha256', pepper).update(secret, 'utf8').digest('hex');
}

/** Constant-time equality of two hex digests (different lengths are simply unequal). */
export function digestsEqual(a: string, b: string): boolean {
  const left = Buffer.from(a, 'hex');
  const right = Buffer.from(b, 'hex');
  return left.length === right.length && left.length > 0 && timingSafeEqual(left, right);
}

/** Constant-time equality of two arbitrary strings, by comparing their SHA-256-sized HMACs. */
export function secretsEqual(given: string, expected: string): boolean {
  const key = randomBytes(32);
  const a = createHmac('sha256', key).update(given, 'utf8').digest();
  const b = createHmac('sha256', key).update(expected, 'utf8').digest();
  return timingSafeEqual(a, b);
}
