import Ajv, { type ErrorObject, type ValidateFunction } from 'ajv';
import { TesseraError } from '../errors/errors';
import type { ParameterDefinition, ParameterValue } from '../descriptor/descriptor-types';

export type QueryValues = Record<string, string | string[] | undefined>;
export type ValidatedParameters = Record<string, ParameterValue>;
export type ParameterValidator = (query: QueryValues | Record<string, unknown>) => ValidatedParameters;

interface ParameterProblem {
  name: string;
  problem: 'missing' | 'wrong type' | 'not allowed';
  allowed?: ParameterValue[];
}

const ajv = new Ajv({ allErrors: true, strict: true, allowUnionTypes: true });
const NUMERIC = /^-?(\d+\.?\d*|\.\d+)([eE][-+]?\d+)?$/;

/**
 * Compiles (once per component version) the validator of its declared parameters. Query strings
 * are coerced strictly: a `number` must be numeric and a `boolean` must be `true` or `false`.
 * Undeclared parameters pass through as given; keys starting with `__oc` are registry controls.
 * The result keeps the request's order, then the defaults, which is the order `href` shows.
 */
export function compileParameterValidator(definitions: Record<string, ParameterDefinition> = {}): ParameterValidator {
  const names = Object.keys(definitions);
  const validate: ValidateFunction = ajv.compile({
    type: 'object',
    properties: Object.fromEntries(
      names.map((name) => {
        const d = definitions[name]!;
        return [name, d.enum ? { type: d.type, enum: d.enum } : { type: d.type }];
      }),
    ),
    required: names.filter((name) => definitions[name]!.mandatory === true),
  });
  const defaults = names.filter((name) => definitions[name]!.default !== undefined);

  return (query) => {
    const params: Record<string, unknown> = {};
    for (const [name, raw] of Object.entries(query)) {
      if (raw === undefined || name.startsWith('__oc')) continue;
      const value = Array.isArray(raw) ? raw[raw.length - 1] : raw;
      const definition = definitions[name];
      params[name] = definition && typeof value === 'string' ? coerce(value, definition.type) : value;
    }
    if (!validate(params)) throw invalid(validate.errors ?? [], definitions);
    for (const name of defaults) if (!(name in params)) params[name] = definitions[name]!.default;
    return params as ValidatedParameters;
  };
}

function coerce(value: string, type: ParameterDefinition['type']): unknown {
  if (type === 'number') return NUMERIC.test(value.trim()) ? Number(value) : value;
  if (type === 'boolean') return value === 'true' ? true : value === 'false' ? false : value;
  return value;
}

function invalid(errors: ErrorObject[], definitions: Record<string, ParameterDefinition>): TesseraError {
  const problems: ParameterProblem[] = errors.map((e) => {
    if (e.keyword === 'required') return { name: (e.params as { missingProperty: string }).missingProperty, problem: 'missing' };
    const name = e.instancePath.slice(1);
    if (e.keyword === 'enum') return { name, problem: 'not allowed', allowed: definitions[name]!.enum! };
    return { name, problem: 'wrong type' };
  });
  const sentences = problems.map((p) =>
    p.problem === 'missing'
      ? `Parameter "${p.name}" is mandatory and missing.`
      : p.problem === 'not allowed'
        ? `Parameter "${p.name}" must be one of: ${p.allowed!.join(', ')}.`
        : `Parameter "${p.name}" must be a ${definitions[p.name]!.type}.`,
  );
  return new TesseraError('NOT_VALID_REQUEST', sentences.join(' '), { details: { parameters: problems } });
}
