import Ajv from 'ajv';
import type { FastifyError, FastifyInstance } from 'fastify';
import { TesseraError } from '../../errors/errors';
import { assertAdmin } from '../admin-access';
import { compileOnFirstUse } from '../compile-on-first-use';
import { errorReply, unexpectedError } from '../error-body';
import { errorResponses } from '../openapi/error-responses';
import type { RegistryServices } from '../registry-services';
import { registerAdminAudit } from './admin-audit';
import { registerAdminNames } from './admin-names';
import { registerAdminTenants } from './admin-tenants';
import { registerAdminTokens } from './admin-tokens';

/** Each admin route's summary in the OpenAPI document. */
const SUMMARIES: Record<string, string> = {
  'GET /~admin/tenants': 'List the tenants',
  'POST /~admin/tenants': 'Create a tenant',
  'GET /~admin/tenants/:name': 'Show a tenant and its use of its quotas',
  'PUT /~admin/tenants/:name': "Change a tenant's name patterns, quotas or weight",
  'POST /~admin/tenants/:name/tokens': 'Create a publish token for a tenant (its secret is shown once)',
  'GET /~admin/tokens': 'List the tokens (never their secrets)',
  'DELETE /~admin/tokens/:id': 'Revoke a token',
  'GET /~admin/audit': 'Read the audit log, oldest first, paged and filtered',
  'GET /~admin/names/:name': "Show who owns a component's name, its history and its versions",
  'PUT /~admin/names/:name': "Transfer a component's name to another tenant",
  'DELETE /~admin/names/:name': "Release a component's name for the next tenant that publishes it",
};
const ADMIN_ERRORS = errorResponses('UNAUTHORIZED', 'NOT_FOUND', 'NOT_VALID_REQUEST', 'POST_BODY_NOT_VALID', 'ALREADY_EXISTS');

/** Query strings arrive as text: numbers are read as numbers; absent ones take their defaults. */
const validators = new Ajv({ coerceTypes: true, useDefaults: true, removeAdditional: false, allErrors: false });

/**
 * `/~admin/…` (decisions §14): tenants, their tokens and the audit log, for the holder of the admin
 * token only. Every refusal is coded: a bad body is POST_BODY_NOT_VALID, a bad query or path
 * NOT_VALID_REQUEST naming the parameter.
 */
export function registerAdmin(app: FastifyInstance, services: RegistryServices): void {
  app.register(async (scope) => {
    // An unknown key is refused rather than silently dropped (fastify's own validator drops it):
    // a mistyped quota must not create a tenant without it.
    scope.setValidatorCompiler(({ schema }) => compileOnFirstUse(validators, schema));
    // The registry's parser drops `__proto__` keys silently; an administrator's body that has one
    // (or `constructor`, `prototype`) is refused instead, naming it, as any unknown key is.
    scope.removeContentTypeParser('application/json');
    scope.addContentTypeParser('application/json', { parseAs: 'string' }, (_request, body, done) => {
      try {
        done(null, parseAdminBody(body as string));
      } catch (error) {
        done(error as Error, undefined);
      }
    });
    scope.addHook('onRequest', async (request) => assertAdmin(request, services.config.adminTokenSha256));
    // What the OpenAPI document says of each route, in one place.
    scope.addHook('onRoute', (route) => {
      const method = Array.isArray(route.method) ? route.method[0] : route.method;
      const summary = SUMMARIES[`${method} ${route.url}`];
      if (summary === undefined) return;
      route.schema = { ...route.schema, summary, tags: ['Administration'], security: [{ adminToken: [] }], response: { ...(route.schema?.response as object), ...ADMIN_ERRORS } };
    });
    scope.setErrorHandler((error: FastifyError, request, reply) => {
      const coded = adminError(error);
      if (coded.code === 'GENERIC_ERROR') request.log.error(error);
      const { status, body } = errorReply(coded, '', '', services.config.development);
      return reply.code(status).send(body);
    });
    registerAdminTenants(scope, services);
    registerAdminTokens(scope, services);
    registerAdminAudit(scope, services);
    registerAdminNames(scope, services);
  });
}

/** Keys no administrator's body may hold: JavaScript reads them as an object's machinery, not as data. */
const RESERVED_KEYS = new Set(['__proto__', 'constructor', 'prototype']);

/** A JSON body, refused when empty, malformed, or holding a reserved key anywhere. */
function parseAdminBody(text: string): unknown {
  if (text.trim() === '') throw new TesseraError('POST_BODY_NOT_VALID', 'The request body is empty: send a JSON object, or no Content-Type.');
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (error) {
    throw new TesseraError('POST_BODY_NOT_VALID', `The request body is not valid JSON: ${(error as Error).message}.`);
  }
  const reserved = reservedKeyIn(parsed, []);
  if (reserved) throw bodyKeyError(reserved, `is a reserved key`);
  return parsed;
}

function reservedKeyIn(value: unknown, path: string[]): string[] | undefined {
  if (value === null || typeof value !== 'object') return undefined;
  for (const key of Object.keys(value)) {
    if (RESERVED_KEYS.has(key)) return [...path, key];
    const found = reservedKeyIn((value as Record<string, unknown>)[key], [...path, key]);
    if (found) return found;
  }
  return undefined;
}

/** POST_BODY_NOT_VALID naming the key at `path` (`quotas.publishesPerHr`), in the sentence and in `details.parameters`. */
const bodyKeyError = (path: string[], problem: string): TesseraError =>
  new TesseraError('POST_BODY_NOT_VALID', `The request body is not valid: "${path.join('.')}" ${problem}.`, { details: { parameters: [{ name: path.join('.'), problem }] } });

function adminError(error: FastifyError): TesseraError {
  if (error instanceof TesseraError) return error;
  if (error.validation && error.validationContext !== 'body') {
    const parameters = error.validation.map((problem) => ({ name: parameterOf(problem), problem: problem.message ?? 'is not valid' }));
    return new TesseraError('NOT_VALID_REQUEST', `The request parameters are not valid: ${error.message}.`, { details: { parameters } });
  }
  const problem = error.validation?.[0];
  if (problem) {
    const path = problem.instancePath.split('/').filter((segment) => segment !== '');
    const named = problem.params.additionalProperty ?? problem.params.missingProperty;
    if (typeof named === 'string') path.push(named);
    const sentence = problem.params.additionalProperty !== undefined ? 'is not a key this body takes' : problem.params.missingProperty !== undefined ? 'is required' : (problem.message ?? 'is not valid');
    return path.length > 0 ? bodyKeyError(path, sentence) : new TesseraError('POST_BODY_NOT_VALID', `The request body is not valid: ${error.message}.`);
  }
  if (error.validation || error.code?.startsWith('FST_ERR_CTP_')) {
    if (error.code === 'FST_ERR_CTP_BODY_TOO_LARGE') return new TesseraError('PAYLOAD_TOO_LARGE', 'The request body is over its size limit.');
    return new TesseraError('POST_BODY_NOT_VALID', `The request body is not valid: ${error.message}.`);
  }
  return unexpectedError(error);
}

/** The parameter a validation problem is about: its path, else the property missing or not allowed. */
function parameterOf(problem: { instancePath: string; params: Record<string, unknown> }): string {
  const named = problem.params.missingProperty ?? problem.params.additionalProperty;
  return problem.instancePath.replace(/^\//, '') || (typeof named === 'string' ? named : '');
}
