import type { default as Ajv, ErrorObject, Schema, ValidateFunction } from 'ajv';
import type { DataValidationCxt } from 'ajv/dist/types';

/** What fastify calls to validate a request part, and reads `errors` from when it answers false. */
export interface LazyValidator {
  (data: unknown, context?: DataValidationCxt): boolean;
  errors: ErrorObject[] | null | undefined;
  /** Set once compiled: fastify then passes the request as the root value's parent (ajv may replace it). */
  schemaEnv?: unknown;
}

/**
 * A route's validator, compiled by `ajv` at the route's first request rather than when the app
 * starts: most routes with a schema of their own (administration, batch, the list's query) see no
 * request in most of a registry's life, and compiling them cost about a quarter of a start's CPU,
 * once per front thread.
 */
export function compileOnFirstUse(ajv: Ajv, schema: Schema): LazyValidator {
  let compiled: ValidateFunction | undefined;
  const validate: LazyValidator = Object.assign(
    (data: unknown, context?: DataValidationCxt): boolean => {
      if (compiled === undefined) {
        compiled = ajv.compile(schema);
        validate.schemaEnv = compiled.schemaEnv;
      }
      const valid = compiled(data, context);
      validate.errors = compiled.errors;
      return valid;
    },
    { errors: null },
  );
  return validate;
}
