import { AppError } from '../errors';

/**
 * Cursor pagination for every list endpoint (decisions section 5): newest first, a stable
 * tie-breaker, an opaque cursor that is base64url(JSON of the last row's sort key), and a
 * malformed cursor treated as no cursor. `limit` is 1..100, default 20; outside is 422.
 */
export const DEFAULT_LIMIT = 20;
export const MAX_LIMIT = 100;

/** JSON-schema fragments for the two query parameters (used by route schemas and OpenAPI). */
export const PAGE_QUERY_PROPERTIES = {
  cursor: { type: 'string', maxLength: 512, description: 'Opaque cursor from a previous page; a malformed one is ignored' },
  limit: { type: 'integer', minimum: 1, maximum: MAX_LIMIT, default: DEFAULT_LIMIT, description: 'Page size 1..100' },
} as const;

/** The sort key of a row: its creation time and a unique tie-breaker (e.g. trade_id, order_hash). */
export interface SortKey {
  at: Date;
  id: string;
}

export interface Page<T> {
  data: T[];
  /** Cursor of the next page; "" when there is none. */
  next_cursor: string;
  has_more: boolean;
}

export function encodeCursor(key: SortKey): string {
  return Buffer.from(JSON.stringify([key.at.toISOString(), key.id]), 'utf8').toString('base64url');
}

/** Decodes a cursor; anything malformed (wrong base64, JSON, shape or date) gives undefined. */
export function decodeCursor(raw: string | undefined): SortKey | undefined {
  if (!raw || !/^[A-Za-z0-9_-]+$/.test(raw)) return undefined;
  try {
    const parsed: unknown = JSON.parse(Buffer.from(raw, 'base64url').toString('utf8'));
    if (!Array.isArray(parsed) || parsed.length !== 2) return undefined;
    const [at, id] = parsed as unknown[];
    if (typeof at !== 'string' || typeof id !== 'string' || id.length === 0 || id.length > 200) return undefined;
    const date = new Date(at);
    if (Number.isNaN(date.getTime()) || date.toISOString() !== at) return undefined;
    return { at: date, id };
  } catch {
    return undefined;
  }
}

/** Checks a limit that a schema may not have checked (e.g. when called outside HTTP). */
export function checkLimit(limit: number | undefined): number {
  const value = limit ?? DEFAULT_LIMIT;
  if (!Number.isInteger(value) || value < 1 || value > MAX_LIMIT) {
    throw new AppError('VALIDATION_ERROR', `limit must be an integer in 1..${MAX_LIMIT}`);
  }
  return value;
}

/**
 * The MongoDB filter and sort that continue after `cursor`, for rows whose creation time is
 * `timeField` and whose unique tie-breaker is `idField`. Fetch `limit + 1` rows, then `toPage`.
 */
export function pageQuery(
  cursor: SortKey | undefined,
  timeField: string,
  idField: string,
): { filter: Record<string, unknown>; sort: Record<string, -1> } {
  const sort = { [timeField]: -1, [idField]: -1 } as Record<string, -1>;
  if (!cursor) return { filter: {}, sort };
  return {
    filter: {
      $or: [{ [timeField]: { $lt: cursor.at } }, { [timeField]: cursor.at, [idField]: { $lt: cursor.id } }],
    },
    sort,
  };
}

/** Builds the page envelope from up to `limit + 1` rows fetched in sort order. */
export function toPage<R, T>(rows: R[], limit: number, keyOf: (row: R) => SortKey, present: (row: R) => T): Page<T> {
  const hasMore = rows.length > limit;
  const shown = hasMore ? rows.slice(0, limit) : rows;
  const last = shown[shown.length - 1];
  return {
    data: shown.map(present),
    next_cursor: hasMore && last !== undefined ? encodeCursor(keyOf(last)) : '',
    has_more: hasMore,
  };
}

/** JSON schema of a page envelope of `item`. */
export function pageSchema(item: object): object {
  return {
    type: 'object',
    additionalProperties: false,
    required: ['data', 'next_cursor', 'has_more'],
    properties: {
      data: { type: 'array', items: item },
      next_cursor: { type: 'string', description: 'Cursor of the next page; empty when has_more is false' },
      has_more: { type: 'boolean' },
    },
  };
}
