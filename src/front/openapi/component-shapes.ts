/**
 * The shapes of a component's answers (decisions §1, §4, §6), for the routes' schemas. They describe
 * what the render pipeline answers; they never decide it (see `register-openapi.ts`).
 */

const COMMON = {
  href: { type: 'string', description: 'The URL that renders this answer again; left out when the batch asks for `omitHref`.' },
  name: { type: 'string' },
  version: { type: 'string', description: 'The version that answered.' },
  requestVersion: { type: 'string', description: 'The version expression asked for; empty for the latest.' },
  type: { const: 'oc-component' },
  baseUrl: { type: 'string', description: "The registry's public address, ending with `/`." },
} as const;

export const RENDERED = {
  type: 'object',
  title: 'Rendered component',
  required: ['name', 'version', 'requestVersion', 'html', 'type', 'renderMode', 'baseUrl'],
  properties: { ...COMMON, html: { type: 'string', description: 'The finished HTML, wrapped in `<oc-component>` unless the component opts out.' }, renderMode: { const: 'rendered' } },
  additionalProperties: true,
} as const;

export const UNRENDERED = {
  type: 'object',
  title: 'Unrendered component',
  required: ['name', 'version', 'requestVersion', 'data', 'template', 'type', 'renderMode', 'baseUrl'],
  properties: {
    ...COMMON,
    data: { description: "The view model (an action's result for an action)." },
    template: {
      type: 'object',
      required: ['src', 'type', 'key'],
      properties: { src: { type: 'string' }, type: { type: 'string' }, key: { type: 'string' } },
    },
    renderMode: { const: 'unrendered' },
  },
  additionalProperties: true,
} as const;

export const INFO_ONLY = {
  type: 'object',
  title: 'Component version info',
  description: 'Exactly these four fields, as OC answers `Accept: application/vnd.oc.info+json`; server logic does not run.',
  required: ['type', 'version', 'requestVersion', 'name'],
  properties: { type: COMMON.type, version: COMMON.version, requestVersion: COMMON.requestVersion, name: COMMON.name },
} as const;

/** What a render can fail with, whichever route asked for it. */
export const RENDER_FAILURES = [
  'NOT_VALID_REQUEST',
  'TEMPLATE_NOT_SUPPORTED',
  'NOT_FOUND',
  'GENERIC_ERROR',
  'MEMORY_LIMIT_EXCEEDED',
  'SANDBOX_CRASHED',
  'REQUEST_BUDGET_EXCEEDED',
  'EXECUTION_CANCELLED',
  'RENDER_ERROR',
  'STORAGE_CORRUPT',
  'PLUGIN_MISSING_FROM_REGISTRY',
  'DEPENDENCY_MISSING_FROM_REGISTRY',
  'OVERLOADED',
  'SANDBOX_QUARANTINED',
  'STORAGE_UNAVAILABLE',
  'EXECUTION_TIMEOUT',
  'NESTING_TOO_DEEP',
] as const;
