import type { ErrorObject } from 'ajv';
import { valid as semverValid } from 'semver';
import { PATTERNS, RESERVED_NAMES } from './descriptor-schema';
import type { SourceDescriptor } from './descriptor-types';
import { descriptorValidator } from './descriptor-validator';

export type DescriptorValidation = { ok: true; descriptor: SourceDescriptor } | { ok: false; problems: string[] };

const checkSchema = descriptorValidator();

const PATTERN_MESSAGES: Record<string, string> = Object.fromEntries(
  Object.values(PATTERNS).map((p) => [p.source, p.message]),
);
const VERSION = new RegExp(PATTERNS.version.source, 'u');
const TEMPLATE_TYPE = new RegExp(PATTERNS.templateType.source, 'u');

/** Validates a component descriptor (source or packaged); lists every problem, each starting with its JSON path. */
export function validateDescriptor(value: unknown): DescriptorValidation {
  const schemaOk = checkSchema(value);
  const problems = (checkSchema.errors ?? []).flatMap((e) => describe(e) ?? []);
  // Cross-field rules run even when the schema failed, so one pass reports everything.
  if (isRecord(value)) problems.push(...crossFieldProblems(value));
  if (schemaOk && problems.length === 0) return { ok: true, descriptor: value };
  return { ok: false, problems };
}

function describe(e: ErrorObject): string | undefined {
  const p = e.params as Record<string, unknown>;
  if (e.propertyName !== undefined) {
    // Errors about a key (propertyNames): point at the key; ajv's wrapper error adds nothing.
    return `${e.instancePath}/${escape(e.propertyName)} ${patternMessage(p.pattern)}`;
  }
  const at = e.instancePath === '' ? '/' : e.instancePath;
  switch (e.keyword) {
    case 'propertyNames':
      return undefined;
    case 'required':
      return `${e.instancePath}/${escape(String(p.missingProperty))} is required`;
    case 'additionalProperties':
      return `${e.instancePath}/${escape(String(p.additionalProperty))} is not an allowed field`;
    case 'type':
      return `${at} must be ${typeList(p.type)}`;
    case 'pattern':
      return `${at} ${patternMessage(p.pattern)}`;
    case 'enum':
      return `${at} must be one of: ${(p.allowedValues as unknown[]).map(String).join(', ')}`;
    case 'const':
      return `${at} must be ${JSON.stringify(p.allowedValue)}`;
    case 'minItems':
      return `${at} must have at least ${String(p.limit)} item${p.limit === 1 ? '' : 's'}`;
    case 'uniqueItems': {
      const [first, second] = [Number(p.i), Number(p.j)].sort((a, b) => a - b);
      return `${at} must not contain duplicates (items ${first} and ${second} are equal)`;
    }
    case 'minimum':
      return `${at} must be at least ${String(p.limit)}`;
    default:
      return `${at} ${e.message ?? 'is not valid'}`;
  }
}

function patternMessage(pattern: unknown): string {
  return PATTERN_MESSAGES[String(pattern)] ?? `must match the pattern ${String(pattern)}`;
}

const ARTICLE: Record<string, string> = { object: 'an object', array: 'an array', integer: 'an integer' };

function typeList(type: unknown): string {
  const names = (Array.isArray(type) ? type : String(type).split(',')).map((t) => ARTICLE[t] ?? `a ${t}`);
  return names.length === 1 ? names[0] : `${names.slice(0, -1).join(', ')} or ${names[names.length - 1]}`;
}

function crossFieldProblems(root: Record<string, unknown>): string[] {
  const problems: string[] = [];
  // The regex accepts some strings semver rejects (over 256 chars, numbers past MAX_SAFE_INTEGER).
  if (typeof root.version === 'string' && VERSION.test(root.version) && semverValid(root.version) === null) {
    problems.push(`/version ${PATTERNS.version.message}`);
  }
  if (typeof root.name === 'string' && RESERVED_NAMES.includes(root.name)) {
    problems.push(`/name "${root.name}" is taken by the registry's own route /${root.name}`);
  }
  const oc = isRecord(root.oc) ? root.oc : {};
  const files = isRecord(oc.files) ? oc.files : {};
  const template = isRecord(files.template) ? files.template : undefined;

  // Only judged when both sides are well formed; otherwise the schema already said why.
  const type = template?.type;
  // OC's legacy "handlebars" type had its compiler built into OC's CLI: no devDependency to ask for.
  if (typeof type === 'string' && TEMPLATE_TYPE.test(type) && type.startsWith('oc-template-') && isRecord(root.devDependencies)) {
    const compiler = `${type}-compiler`;
    if (!Object.hasOwn(root.devDependencies, compiler)) {
      problems.push(`/devDependencies must include "${compiler}" for template type "${type}"`);
    }
  }

  if (oc.packaged === true && template) {
    if (typeof template.src === 'string' && template.src !== 'template.js') {
      problems.push('/oc/files/template/src must be "template.js" in a packaged descriptor');
    }
    if (!Object.hasOwn(template, 'hashKey')) {
      problems.push('/oc/files/template/hashKey is required in a packaged descriptor');
    }
  }

  if (isRecord(oc.parameters)) {
    for (const [name, definition] of Object.entries(oc.parameters)) {
      problems.push(...parameterProblems(`/oc/parameters/${escape(name)}`, definition));
    }
  }
  return problems;
}

function parameterProblems(at: string, definition: unknown): string[] {
  if (!isRecord(definition)) return [];
  const type = definition.type;
  if (type !== 'string' && type !== 'boolean' && type !== 'number') return [];
  const problems: string[] = [];
  const values = Array.isArray(definition.enum) ? (definition.enum as unknown[]) : undefined;
  values?.forEach((v, i) => {
    if (isScalar(v) && typeof v !== type) problems.push(`${at}/enum/${i} must be a ${type}, the parameter's type`);
  });
  const dflt = definition.default;
  if (isScalar(dflt)) {
    if (typeof dflt !== type) {
      problems.push(`${at}/default must be a ${type}, the parameter's type`);
    } else if (values && values.length > 0 && !values.includes(dflt)) {
      problems.push(`${at}/default must be one of the enum values: ${values.map(String).join(', ')}`);
    }
  }
  return problems;
}

function isScalar(v: unknown): v is string | boolean | number {
  return typeof v === 'string' || typeof v === 'boolean' || typeof v === 'number';
}

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** JSON Pointer escaping, as ajv uses for instancePath. */
function escape(segment: string): string {
  return segment.replace(/~/g, '~0').replace(/\//g, '~1');
}
