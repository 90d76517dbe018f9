import type { NextFunction, Request, Response } from 'express';
import { AppError } from '../errors';
import type { ValidateFunction } from 'ajv';
import { validateOrThrow } from '../validation/ajv';

/**
 * Query strings arrive as strings (or arrays / objects from repeated or bracketed names). This
 * coerces the properties a schema declares as integers from canonical digit strings, lower-cases
 * the ones listed in `lowerCase`, and validates the result with the same schema (which rejects
 * unknown parameters). The schema stays in its public form (integer, enum) for OpenAPI.
 */
export interface QuerySchema {
  type: 'object';
  properties: Record<string, { type?: string | readonly string[] } & Record<string, unknown>>;
  additionalProperties: false;
  required?: readonly string[];
}

export function parseQuery<T>(
  schema: QuerySchema,
  validate: ValidateFunction<T>,
  query: unknown,
  options: { lowerCase?: string[] } = {},
): T {
  const input: Record<string, unknown> = { ...((query ?? {}) as Record<string, unknown>) };
  // A malformed cursor is treated as no cursor (spec), whatever makes it so: repeated, or longer
  // than any cursor the service gives (a schema check would answer 422 for those).
  const cursor = schema.properties.cursor;
  if (cursor && input.cursor !== undefined && (typeof input.cursor !== 'string' || input.cursor.length > Number(cursor.maxLength ?? Infinity))) delete input.cursor;
  for (const [name, prop] of Object.entries(schema.properties)) {
    const value = input[name];
    if (typeof value !== 'string') continue;
    if (prop.type === 'integer' && /^-?\d{1,15}$/.test(value)) input[name] = Number(value);
    else if (options.lowerCase?.includes(name)) input[name] = value.toLowerCase();
  }
  return validateOrThrow(validate, input, 'query');
}

/** For routes that take no query parameters: any parameter is unknown, so 422. */
export function noQueryParams(req: Request, _res: Response, next: NextFunction): void {
  const names = Object.keys((req.query ?? {}) as Record<string, unknown>);
  if (names.length > 0) throw new AppError('VALIDATION_ERROR', `Invalid query: unknown parameter '${names[0]}'`);
  next();
}
