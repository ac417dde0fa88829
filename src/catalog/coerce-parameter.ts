import type { ParameterDefinition } from '../descriptor/descriptor-types';

const NUMERIC = /^-?(\d+\.?\d*|\.\d+)([eE][-+]?\d+)?$/;

/** A query string's value as its declared type, strictly: a `number` must be numeric, a `boolean` `true` or `false`; else as given. */
export function coerceParameter(value: string, type: ParameterDefinition['type']): unknown {
  if (type === 'number') return NUMERIC.test(value.trim()) ? Number(value) : value;
  if (type === 'boolean') return value === 'true' ? true : value === 'false' ? false : value;
  return value;
}
