import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { errorReply } from '../error-body';
import { loadBrowserClient } from '../browser-client-files';
import { authorizationOfForm, lastErrorsSight } from '../last-errors-access';
import { wantsHtml } from '../negotiate';
import { formValidator } from '../query-validator';
import { errorResponses } from '../openapi/error-responses';
import type { RegistryServices } from '../registry-services';
import { componentPage } from '../web-ui/component-page';
import { lastErrorsSection } from '../web-ui/last-errors-section';

type InfoRequest = FastifyRequest<{ Params: { name: string; version?: string }; Body?: unknown }>;

/** A posted token form is small: a field of a token. */
const FORM_BYTES = 4096;

/**
 * `GET /:name/~info` and `GET /:name/:version/~info`: the published descriptor, its versions and
 * publisher; for a browser, the component's page, with its last errors to its tenant or the
 * administrator (`Authorization: Bearer`). `POST` of the same paths: the page, with the token posted
 * by its form (`token`, form-encoded).
 */
export function registerComponentInfo(app: FastifyInstance, services: RegistryServices): void {
  const handler = (posted: boolean) => async (request: InfoRequest, reply: FastifyReply) => {
    const { name } = request.params;
    const requestVersion = request.params.version ?? '';
    try {
      const component = services.catalog.resolve(name, requestVersion);
      // The whole descriptor is read from storage: the catalog keeps only its summary in memory.
      const descriptor = await component.loadDescriptor();
      const deprecation = services.catalog.deprecationOf(component.name, component.version);
      const info = { ...descriptor, allVersions: services.catalog.versions(name), requestVersion, ...(deprecation ? { state: 'deprecated', deprecation } : {}) };
      if (posted || wantsHtml(request)) {
        const authorization = posted ? authorizationOfForm(request.body) : request.headers.authorization;
        const sight = await lastErrorsSight(authorization, component.name, services);
        const baseUrl = services.publicBaseUrl.value;
        const clientUrl = `${baseUrl}oc-client/client.js?v=${loadBrowserClient().version}`;
        const page = componentPage({ baseUrl, descriptor, allVersions: info.allVersions, clientUrl, deprecation, lastErrors: lastErrorsSection(sight) });
        // A page asked with a token is that reader's alone: never kept by a cache.
        if (authorization !== undefined || posted) reply.header('cache-control', 'no-store');
        if (sight.kind === 'refused') reply.code(sight.status);
        return reply.type('text/html; charset=utf-8').send(page);
      }
      return reply.send(info);
    } catch (error) {
      const { status, body } = errorReply(error, name, requestVersion, services.config.development);
      return reply.code(status).send(body);
    }
  };
  app.get('/:name/~info', { schema: schemaOf(false) }, handler(false));
  app.get('/:name/:version/~info', { schema: schemaOf(true) }, handler(false));
  app.register(async (scope) => {
    scope.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string', bodyLimit: FORM_BYTES }, (_request, body, done) =>
      done(null, Object.fromEntries(new URLSearchParams(body as string))),
    );
    scope.post('/:name/~info', { schema: postSchemaOf(false), validatorCompiler: formValidator }, handler(true));
    scope.post('/:name/:version/~info', { schema: postSchemaOf(true), validatorCompiler: formValidator }, handler(true));
  });
}

const PAGE = { 'text/html': { schema: { type: 'string' } } } as const;

const schemaOf = (withVersion: boolean) => ({
  summary: withVersion ? "A component version's descriptor" : "The latest version's descriptor",
  description:
    "The published descriptor (`package.json`) with every published version; with `Accept: text/html`, the web UI's component page with a live preview, " +
    "and the component's last errors with `Authorization: Bearer` and one of its tenant's publish tokens or the administrator's (401 or 403, the page with a coded refusal, for another token).",
  tags: ['Catalog'],
  response: {
    200: {
      description: 'The descriptor, or the web UI page.',
      content: {
        'application/json': {
          schema: {
            type: 'object',
            required: ['name', 'version', 'oc', 'allVersions', 'requestVersion'],
            properties: {
              name: { type: 'string' },
              version: { type: 'string' },
              oc: { type: 'object', additionalProperties: true, description: 'As packaged, with `publisher: {tenant, date}`.' },
              allVersions: { type: 'array', items: { type: 'string' }, description: 'Ascending.' },
              requestVersion: { type: 'string' },
            },
            additionalProperties: true,
          },
        },
        ...PAGE,
      },
    },
    ...errorResponses('NOT_FOUND'),
  },
});

const postSchemaOf = (withVersion: boolean) => ({
  summary: withVersion ? "A component version's page with its last errors" : "The latest version's page with its last errors",
  description:
    "The web UI's component page, with the component's last errors on this replica (newest first, at most 20) when the form's `token` is one of its tenant's publish tokens or the administrator's. " +
    'A token refused is answered with the page, its refusal coded in it and none of the errors, as 401 (`UNAUTHORIZED`: neither a live publish token nor the administrator\'s) ' +
    "or 403 (`FORBIDDEN`: another tenant's, or outside its name patterns). Answered with `Cache-Control: no-store`. See docs/guides/authors/watching-executions.md.",
  tags: ['Catalog'],
  body: { type: 'object', properties: { token: { type: 'string', description: "A publish token of the component's tenant, or the administrator's." } } },
  response: {
    200: { description: 'The page; without a token, the form asking for one.', content: PAGE },
    ...errorResponses('NOT_FOUND'),
  },
});
