import pino, { Logger } from 'pino';

/**
 * Structured JSON logs. Credential headers and secret-bearing fields are redacted at the
 * serializer, so no code path can log them by accident.
 */
export const REDACTED_PATHS = [
  'req.headers.authorization',
  'req.headers["fs-api-secret"]',
  'req.headers["fs-api-key"]',
  'req.headers["x-admin-token"]',
  'req.headers.cookie',
  'secret',
  '*.secret',
  'token',
  '*.token',
  'privateKey',
  '*.privateKey',
];

export function createLogger(options: { level?: string; name?: string } = {}): Logger {
  return pino({
    level: options.level ?? 'info',
    name: options.name,
    redact: { paths: REDACTED_PATHS, censor: '[redacted]' },
  });
}

export type { Logger };
