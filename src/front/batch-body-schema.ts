import Ajv from 'ajv';
import type { FastifySchemaCompiler } from 'fastify';
import { compileOnFirstUse } from './compile-on-first-use';

/** `POST /` body (decisions §5); other fields are ignored. */
export const BATCH_BODY_SCHEMA = {
  type: 'object',
  required: ['components'],
  properties: {
    components: {
      type: 'array',
      items: {
        type: 'object',
        required: ['name'],
        properties: {
          name: { type: 'string', minLength: 1 },
          version: { type: 'string' },
          parameters: { type: 'object' },
        },
      },
    },
    parameters: { type: 'object' },
    omitHref: { type: 'boolean' },
  },
} as const;

export interface BatchBody {
  components: Array<{ name: string; version?: string; parameters?: Record<string, unknown> }>;
  parameters?: Record<string, unknown>;
  omitHref?: boolean;
}

// fastify's default validator coerces types (a number name would become a string); a batch is taken as sent.
const ajv = new Ajv({ strict: true, coerceTypes: false, useDefaults: false, removeAdditional: false });

export const strictBatchValidator: FastifySchemaCompiler<unknown> = ({ schema }) => compileOnFirstUse(ajv, schema as object);
