import Ajv from 'ajv';
import type { FastifyError, FastifyInstance } from 'fastify';
import { TesseraError } from '../../errors/errors';
import { assertAdmin } from '../admin-access';
import { compileOnFirstUse } from '../compile-on-first-use';
import { errorReply, unexpectedError } from '../error-body';
import { errorResponses } from '../openapi/error-responses';
import type { RegistryServices } from '../registry-services';
import { registerAdminAudit } from './admin-audit';
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
  });
}

function adminError(error: FastifyError): TesseraError {
  if (error instanceof TesseraError) return error;
  if (error.validation && error.validationContext !== 'body') {
    const parameters = error.validation.map((problem) => ({ name: parameterOf(problem), problem: problem.message ?? 'is not valid' }));
    return new TesseraError('NOT_VALID_REQUEST', `The request parameters are not valid: ${error.message}.`, { details: { parameters } });
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
