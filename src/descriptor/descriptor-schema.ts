/**
 * JSON schema (draft-07) of the component descriptor, source or packaged.
 * Cross-field rules (compiler devDependency, default/enum typing, packaged
 * template src) cannot be said in draft-07 readably; validate-descriptor.ts checks them.
 */
import type { SchemaObject } from 'ajv';

/** Patterns, with the sentence that follows the JSON path when a value does not match. */
export const PATTERNS = {
  name: { source: '^[a-z0-9]+(-[a-z0-9]+)*$', message: 'must be kebab-case (lowercase letters, digits and dashes)' },
  // semver.org's regex; the validator also asks semver.valid (length and integer limits).
  version: {
    source:
      '^(0|[1-9]\\d*)\\.(0|[1-9]\\d*)\\.(0|[1-9]\\d*)' +
      '(?:-((?:0|[1-9]\\d*|\\d*[a-zA-Z-][0-9a-zA-Z-]*)(?:\\.(?:0|[1-9]\\d*|\\d*[a-zA-Z-][0-9a-zA-Z-]*))*))?' +
      '(?:\\+([0-9a-zA-Z-]+(?:\\.[0-9a-zA-Z-]+)*))?$',
    message: 'must be a semantic version (major.minor.patch)',
  },
  // "handlebars": how OC's older components name their type (the packager writes oc-template-handlebars).
  templateType: {
    source: '^(oc-template-[a-z0-9-]+|handlebars)$',
    message: 'must be a template type named oc-template-<type> (lowercase letters, digits and dashes), or OC\'s legacy "handlebars"',
  },
  hex: { source: '^[0-9a-fA-F]+$', message: 'must be a hex string' },
  // Static folders are copied into the package: no absolute paths, no climbing out with "..".
  staticFolder: {
    source: '^(?![/\\\\])(?![A-Za-z]:)(?!.*\\.\\.).+$',
    message: 'must be a relative folder path without ".."',
  },
  // Only used under propertyNames, so the sentence is about the key.
  parameterName: {
    source: '^[a-z][a-zA-Z0-9]*$',
    message: 'must be named in camelCase (a lowercase letter, then letters and digits)',
  },
} as const;

/**
 * Names the registry's own routes answer at `/<name>`: a component so named could never be reached
 * by its href, and `oc-client` is the registry's own (OC's clients ask for it).
 */
export const RESERVED_NAMES: readonly string[] = ['oc-client', 'metrics', 'livez', 'readyz'];

const COMPONENT_NAME = new RegExp(PATTERNS.name.source, 'u');
/** Whether `name` is a valid component name (kebab-case). */
export const isComponentName = (name: string): boolean => COMPONENT_NAME.test(name);

const str = { type: 'string' };
const strings = { type: 'array', items: str };
const stringMap = { type: 'object', additionalProperties: str };
const scalar = { type: ['string', 'boolean', 'number'] };

const parameterDefinition = {
  type: 'object',
  required: ['type'],
  additionalProperties: false,
  properties: {
    type: { type: 'string', enum: ['string', 'boolean', 'number'] },
    mandatory: { type: 'boolean' },
    description: str,
    // Documentation only: any JSON value, as OC accepts (decisions §7).
    example: {},
    default: scalar,
    enum: { type: 'array', minItems: 1, items: scalar },
  },
};

const files = {
  type: 'object',
  required: ['template'],
  additionalProperties: false,
  properties: {
    template: {
      type: 'object',
      required: ['src', 'type'],
      additionalProperties: false,
      properties: {
        src: str,
        type: { type: 'string', pattern: PATTERNS.templateType.source },
        hashKey: { type: 'string', pattern: PATTERNS.hex.source },
      },
    },
    data: str,
    dataProvider: {
      type: 'object',
      required: ['src', 'type', 'hashKey', 'size'],
      additionalProperties: false,
      properties: {
        src: { type: 'string', const: 'server.js' },
        type: { type: 'string', const: 'node.js' },
        hashKey: { type: 'string', pattern: PATTERNS.hex.source },
        size: { type: 'number', minimum: 0 },
      },
    },
    static: { type: 'array', items: { type: 'string', pattern: PATTERNS.staticFolder.source } },
    env: str,
  },
};

export const descriptorSchema: SchemaObject = {
  $schema: 'http://json-schema.org/draft-07/schema#',
  type: 'object',
  required: ['name', 'version', 'devDependencies', 'oc'],
  // npm fields (scripts, license, ...) are allowed at the top level.
  properties: {
    name: { type: 'string', pattern: PATTERNS.name.source },
    version: { type: 'string', pattern: PATTERNS.version.source },
    description: str,
    author: str,
    repository: str,
    dependencies: stringMap,
    devDependencies: stringMap,
    oc: {
      type: 'object',
      required: ['files'],
      additionalProperties: false,
      properties: {
        files,
        container: { type: 'boolean' },
        minify: { type: 'boolean' },
        renderInfo: { type: 'boolean' },
        state: { type: 'string', enum: ['active', 'experimental', 'deprecated'] },
        plugins: { ...strings, uniqueItems: true },
        parameters: {
          type: 'object',
          propertyNames: { pattern: PATTERNS.parameterName.source },
          additionalProperties: parameterDefinition,
        },
        // Written by the packager and the publish route.
        packaged: { type: 'boolean', const: true },
        date: { type: 'number' },
        actions: strings,
        publisher: {
          type: 'object',
          required: ['tenant', 'date'],
          additionalProperties: false,
          properties: { tenant: str, date: { type: 'number' }, generation: { type: 'integer', minimum: 1 } },
        },
      },
    },
  },
};
