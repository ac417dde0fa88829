import Ajv, { type ErrorObject, type ValidateFunction } from 'ajv';
import { TesseraError } from '../errors/errors';
import { coerceParameter } from './coerce-parameter';
import type { ParameterDefinition, ParameterValue } from '../descriptor/descriptor-types';

export type QueryValues = Record<string, string | string[] | undefined>;
export type ValidatedParameters = Record<string, ParameterValue>;
export type ParameterValidator = (query: QueryValues | Record<string, unknown>) => ValidatedParameters;

interface ParameterProblem {
  name: string;
  problem: 'missing' | 'wrong type' | 'not allowed';
  allowed?: ParameterValue[];
}

// The schemas are built below from declarations the descriptor schema checked: checking each one
// against JSON Schema's meta-schema would only cost compiling that (about 20 ms at a registry's first render).
const ajv = new Ajv({ allErrors: true, strict: true, allowUnionTypes: true, validateSchema: false });

/**
 * Validators by what they check: the versions of a component mostly declare the same parameters.
 * Bounded, since ajv's compiled code is the largest part of a validator; past the bound it starts over.
 */
const compiled = new Map<string, ParameterValidator>();
const MAX_COMPILED = 2000;

/** The validator of a version's declared parameters: one compiled per distinct declaration, shared. */
export function compileParameterValidator(definitions: Record<string, ParameterDefinition> = {}): ParameterValidator {
  const key = JSON.stringify(Object.entries(definitions).map(([name, d]) => [name, d.type, d.mandatory, d.default, d.enum]));
  let validator = compiled.get(key);
  if (!validator) {
    if (compiled.size >= MAX_COMPILED) compiled.clear();
    validator = compileValidator(definitions);
    compiled.set(key, validator);
  }
  return validator;
}

/**
 * Compiles the validator of declared parameters. Query strings
 * are coerced strictly: a `number` must be numeric and a `boolean` must be `true` or `false`.
 * Undeclared parameters pass through as given; keys starting with `__oc` are registry controls.
 * The result keeps the request's order, then the defaults, which is the order `href` shows.
 */
function compileValidator(definitions: Record<string, ParameterDefinition>): ParameterValidator {
  const names = Object.keys(definitions);
  const schema = {
    type: 'object',
    properties: Object.fromEntries(
      names.map((name) => {
        const d = definitions[name]!;
        return [name, d.enum ? { type: d.type, enum: d.enum } : { type: d.type }];
      }),
    ),
    required: names.filter((name) => definitions[name]!.mandatory === true),
  };
  const validate: ValidateFunction = ajv.compile(schema);
  // ajv keeps every schema it compiled; the memo above is what keeps validators.
  ajv.removeSchema(schema);
  const defaults = names.filter((name) => definitions[name]!.default !== undefined);

  return (query) => {
    const params: Record<string, unknown> = {};
    // A repeated query parameter, or a batch parameter that is a list, an object or null, is refused:
    // it has no one value to validate or to show in `href`.
    const notSingle: ParameterProblem[] = [];
    for (const [name, value] of Object.entries(query)) {
      if (value === undefined || name.startsWith('__oc')) continue;
      if (typeof value === 'object') {
        notSingle.push({ name, problem: 'wrong type' });
        continue;
      }
      const definition = definitions[name];
      params[name] = definition && typeof value === 'string' ? coerceParameter(value, definition.type) : value;
    }
    const valid = validate(params);
    if (!valid || notSingle.length > 0) throw invalid(notSingle, valid ? [] : (validate.errors ?? []), definitions);
    for (const name of defaults) if (!(name in params)) params[name] = definitions[name]!.default;
    return params as ValidatedParameters;
  };
}

function invalid(notSingle: ParameterProblem[], errors: ErrorObject[], definitions: Record<string, ParameterDefinition>): TesseraError {
  const reported = new Set(notSingle.map((p) => p.name));
  const problems: ParameterProblem[] = [...notSingle];
  for (const e of errors) {
    if (e.keyword === 'required') {
      const name = (e.params as { missingProperty: string }).missingProperty;
      if (!reported.has(name)) problems.push({ name, problem: 'missing' });
      continue;
    }
    const name = e.instancePath.slice(1);
    problems.push(e.keyword === 'enum' ? { name, problem: 'not allowed', allowed: definitions[name]!.enum! } : { name, problem: 'wrong type' });
  }
  const sentences = problems.map((p) =>
    p.problem === 'missing'
      ? `Parameter "${p.name}" is mandatory and missing.`
      : p.problem === 'not allowed'
        ? `Parameter "${p.name}" must be one of: ${p.allowed!.join(', ')}.`
        : reported.has(p.name)
          ? `Parameter "${p.name}" must be a single ${definitions[p.name]?.type ?? 'string, number or boolean'}, given once.`
          : `Parameter "${p.name}" must be a ${definitions[p.name]!.type}.`,
  );
  return new TesseraError('NOT_VALID_REQUEST', sentences.join(' '), { details: { parameters: problems } });
}
