import Ajv, { ErrorObject, ValidateFunction } from 'ajv';
import addFormats from 'ajv-formats';
import { AppError } from '../errors';

/**
 * The one ajv instance. Schemas are compiled once at module load and reused for HTTP bodies,
 * query strings, socket messages and workflow inputs. `coerceTypes` is off: query strings are
 * coerced explicitly by their schemas' callers, so a JSON body never has "1" silently become 1.
 */
export const ajv = new Ajv({ allErrors: true, strict: true, useDefaults: true });
addFormats(ajv);

export function compileSchema<T>(schema: object): ValidateFunction<T> {
  return ajv.compile<T>(schema);
}

function describe(errors: ErrorObject[] | null | undefined): string {
  if (!errors || errors.length === 0) return 'invalid input';
  return errors
    .slice(0, 5)
    .map((e) => {
      const where = e.instancePath || '(root)';
      if (e.keyword === 'additionalProperties') return `${where} has unknown property '${String(e.params.additionalProperty)}'`;
      return `${where} ${e.message ?? 'is invalid'}`;
    })
    .join('; ');
}

/** Validates `data` and returns it typed, or throws a 422 VALIDATION_ERROR naming what is wrong. */
export function validateOrThrow<T>(validate: ValidateFunction<T>, data: unknown, what = 'request'): T {
  if (validate(data)) return data;
  throw new AppError('VALIDATION_ERROR', `Invalid ${what}: ${describe(validate.errors)}`, {
    errors: (validate.errors ?? []).map((e) => ({ path: e.instancePath, message: e.message, params: e.params })),
  });
}
