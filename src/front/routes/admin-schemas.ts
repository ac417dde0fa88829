/** JSON schemas of the `/~admin/` bodies and answers (fastify validates the ones and serializes the others). */
import { PATTERNS } from '../../descriptor/descriptor-schema';

const NAME = { type: 'string', pattern: '^[a-z0-9-]+$', minLength: 1, maxLength: 64 } as const;
const COUNT = { type: 'integer', minimum: 0 } as const;
/** The largest weight a tenant may have in the sandbox's fair share (the smallest is just above 0). */
export const MAX_WEIGHT = 1000;

export const quotasSchema = {
  type: 'object',
  additionalProperties: false,
  properties: { storageBytes: COUNT, versionsPerComponent: COUNT, publishesPerHour: COUNT, lifecycleChangesPerMinute: { type: 'integer', minimum: 1 } },
} as const;

const tenantSettings = {
  components: { type: 'array', minItems: 1, items: { type: 'string', pattern: '^[a-z0-9*-]+$', minLength: 1 } },
  quotas: quotasSchema,
  // Bounded so that the fair share's sum of weights stays a number (two weights of 1e308 made it Infinity).
  weight: { type: 'number', exclusiveMinimum: 0, maximum: MAX_WEIGHT },
} as const;

export const createTenantBody = {
  type: 'object',
  required: ['name', 'components'],
  additionalProperties: false,
  properties: { name: NAME, ...tenantSettings },
} as const;

export const updateTenantBody = { type: 'object', additionalProperties: false, minProperties: 1, properties: tenantSettings } as const;

export const tenantAnswer = {
  type: 'object',
  required: ['name', 'components', 'quotas', 'revision', 'updatedAt', 'updatedBy'],
  properties: {
    name: { type: 'string' },
    components: { type: 'array', items: { type: 'string' } },
    quotas: quotasSchema,
    weight: { type: 'number' },
    revision: { type: 'integer' },
    updatedAt: { type: 'string' },
    updatedBy: { type: 'string' },
    usage: {
      type: 'object',
      properties: { storageBytes: { type: 'number' }, versions: { type: 'integer' }, publishesThisHour: { type: 'integer' }, liveTokens: { type: 'integer' } },
    },
  },
} as const;

export const tokenAnswer = {
  type: 'object',
  required: ['id', 'tenant', 'createdAt', 'createdBy'],
  properties: {
    id: { type: 'string' },
    tenant: { type: 'string' },
    createdAt: { type: 'string' },
    createdBy: { type: 'string' },
    revokedAt: { type: 'string' },
  },
} as const;

/** The one answer that carries a secret: the token as created. */
export const createdTokenAnswer = {
  ...tokenAnswer,
  required: [...tokenAnswer.required, 'token'],
  properties: { ...tokenAnswer.properties, token: { type: 'string' } },
} as const;

export const nameParams = { type: 'object', required: ['name'], properties: { name: NAME } } as const;
export const componentNameParams = {
  type: 'object',
  required: ['name'],
  properties: { name: { type: 'string', pattern: PATTERNS.name.source, maxLength: 214 } },
} as const;
export const transferNameBody = { type: 'object', required: ['tenant'], additionalProperties: false, properties: { tenant: NAME } } as const;

const nameRecord = {
  type: 'object',
  properties: {
    name: { type: 'string' },
    generation: { type: 'integer' },
    tenant: { type: ['string', 'null'] },
    action: { type: 'string', enum: ['claim', 'transfer', 'release'] },
    date: { type: 'string' },
    by: { type: 'string' },
    version: { type: 'string' },
  },
} as const;

/** A name's owner (null: released), the generation of its newest record, its history and the versions served. */
export const nameAnswer = {
  type: 'object',
  required: ['name', 'owner', 'generation', 'history', 'versions'],
  properties: {
    name: { type: 'string' },
    owner: { type: ['string', 'null'] },
    generation: { type: 'integer' },
    history: { type: 'array', items: nameRecord },
    versions: {
      type: 'array',
      items: { type: 'object', properties: { version: { type: 'string' }, tenant: { type: 'string' }, generation: { type: 'integer' } } },
    },
  },
} as const;

export const idParams = { type: 'object', required: ['id'], properties: { id: { type: 'string', pattern: '^[a-z0-9]+$', maxLength: 64 } } } as const;

export const auditQuery = {
  type: 'object',
  additionalProperties: false,
  properties: {
    after: { type: 'string', pattern: '^audit/([0-9]{4}-[0-9]{2}-[0-9]{2}/)?[0-9a-f-]+$', maxLength: 100 },
    limit: { type: 'integer', minimum: 1, maximum: 1000, default: 100 },
    tenant: NAME,
    component: { type: 'string', maxLength: 256 },
  },
} as const;

export const auditAnswer = {
  type: 'object',
  required: ['entries'],
  properties: {
    entries: {
      type: 'array',
      items: {
        type: 'object',
        properties: {
          time: { type: 'string' },
          action: { type: 'string' },
          tenant: { type: ['string', 'null'] },
          tokenId: { type: 'string' },
          component: { type: 'string' },
          sha256: { type: 'string' },
          client: { type: 'string' },
          details: { type: 'object', additionalProperties: true },
        },
      },
    },
    next: { type: 'string' },
  },
} as const;

/**
 * A token as answered: never its sha256 (answers are sent as they are built, not cut down to their
 * schema), its secret only when `secret` is given (its creation).
 */
export function tokenView(token: { id: string; tenant: string; createdAt: string; createdBy: string; revokedAt?: string }, secret?: string): Record<string, string> {
  const view: Record<string, string> = { id: token.id, tenant: token.tenant, createdAt: token.createdAt, createdBy: token.createdBy };
  if (token.revokedAt !== undefined) view.revokedAt = token.revokedAt;
  if (secret !== undefined) view.token = secret;
  return view;
}
