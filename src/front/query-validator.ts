import Ajv from 'ajv';
import type { FastifySchemaCompiler } from 'fastify';
import { compileOnFirstUse } from './compile-on-first-use';

/**
 * Validates a route's query string against its schema, numbers and booleans read from their text.
 * The registry's own ajv, not fastify's default compiler: that one would build another ajv with
 * its formats at every start (about a tenth of a registry's start-up CPU) for one small schema. A
 * value given twice stays a list, refused rather than taken from its first item.
 */
const ajv = new Ajv({ strict: true, coerceTypes: true, useDefaults: false, removeAdditional: false });

export const queryValidator: FastifySchemaCompiler<unknown> = ({ schema }) => compileOnFirstUse(ajv, schema as object);

/**
 * A posted form's fields (`application/x-www-form-urlencoded`) arrive as text, as a query string's
 * do: the same rules. Fastify's default compiler would build an ajv with its formats at every start
 * for the one form's schema (about 80 ms of a registry's start, once per front thread).
 */
export const formValidator: FastifySchemaCompiler<unknown> = queryValidator;
