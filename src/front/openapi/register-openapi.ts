import swagger from '@fastify/swagger';
import type { FastifyInstance, FastifySchema } from 'fastify';
import { REGISTRY_VERSION } from '../registry-version';
import { ERROR_BODY_SCHEMA } from './error-responses';
import { withPathParameters } from './path-parameters';
import { PUBLISH_ROUTE_DOC } from './publish-route-doc';

const TAGS = [
  { name: 'Rendering', description: 'Render components: one, several at once, or an action.' },
  { name: 'Catalog', description: 'What is published: the list, a version with its descriptor, static files. With `Accept: text/html`, the web UI.' },
  { name: 'Publishing', description: "Publish a packed component with a tenant's token." },
  { name: 'Browser client', description: 'The script that renders `<oc-component>` elements in pages, its runtimes, and the registry\'s own `oc-client` component.' },
  { name: 'Operations', description: 'Health, metrics and this document.' },
  { name: 'Lifecycle', description: 'Unpublish and deprecate a version.' },
  { name: 'Administration', description: 'Tenants, their tokens and the audit log, with the admin token.' },
];

/** An operation whose schema carries this key accepts a request without a body (@fastify/swagger marks every body required). */
export const OPTIONAL_BODY = 'x-optional-body';

/**
 * The OpenAPI 3.1 document (`GET /openapi.json`), built by @fastify/swagger from the routes' own
 * schemas. Loaded before the routes are added, since it learns them as they are.
 *
 * Response schemas describe answers; they never shape them: fastify would otherwise serialize each
 * answer through its schema, dropping any field the schema does not name (a component's `data`, a
 * development stack). Answers stay `JSON.stringify`'d, as without schemas.
 */
export async function registerOpenApi(app: FastifyInstance): Promise<void> {
  app.setSerializerCompiler(() => (data) => JSON.stringify(data));
  await app.register(swagger, {
    openapi: {
      openapi: '3.1.0',
      info: {
        title: 'Tessera',
        version: REGISTRY_VERSION,
        description:
          'A registry of versioned UI components speaking the OpenComponents HTTP contract. Every error answers the `ErrorBody` ' +
          'shape with a code listed in docs/reference/errors.md. CORS preflight (`OPTIONS` on every path but publishing) and `HEAD` on every `GET` path are answered too.',
      },
      tags: TAGS,
      components: {
        schemas: { ErrorBody: ERROR_BODY_SCHEMA },
        securitySchemes: {
          publishToken: { type: 'http', scheme: 'bearer', description: "A tenant's publish token (or the administrator's, to unpublish and deprecate)." },
          adminToken: { type: 'http', scheme: 'bearer', description: "The administrator's token, whose sha256 the configuration holds (`adminTokenSha256`)." },
        },
      },
    },
    transformObject: (document) => withOptionalBodies('openapiObject' in document ? document.openapiObject : document.swaggerObject),
    transform: describeRoute,
  });
}

/** A route as the document describes it: its own schema with its path parameters, or publishing's description. */
export function describeRoute({ schema, url, route }: { schema: FastifySchema; url: string; route: { method: string | string[] } }): { schema: FastifySchema; url: string } {
  if (route.method === 'PUT' && url === '/:name/:version' && !schema?.summary) return { schema: PUBLISH_ROUTE_DOC, url };
  return { schema: withPathParameters(schema, url), url };
}

type Operation = { requestBody?: { required?: boolean }; [OPTIONAL_BODY]?: boolean };

function withOptionalBodies<T extends { paths?: object }>(document: T): T {
  for (const path of Object.values(document.paths ?? {}) as Array<Record<string, Operation>>) {
    for (const operation of Object.values(path)) {
      if (!operation[OPTIONAL_BODY]) continue;
      delete operation[OPTIONAL_BODY];
      if (operation.requestBody) operation.requestBody.required = false;
    }
  }
  return document;
}
