import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { errorReply } from '../error-body';
import { loadBrowserClient } from '../browser-client-files';
import { wantsHtml } from '../negotiate';
import { errorResponses } from '../openapi/error-responses';
import type { RegistryServices } from '../registry-services';
import { componentPage } from '../web-ui/component-page';

/** `GET /:name/~info` and `GET /:name/:version/~info`: the published descriptor, its versions and publisher. */
export function registerComponentInfo(app: FastifyInstance, services: RegistryServices): void {
  const handler = async (request: FastifyRequest<{ Params: { name: string; version?: string } }>, reply: FastifyReply) => {
    const { name } = request.params;
    const requestVersion = request.params.version ?? '';
    try {
      const component = services.catalog.resolve(name, requestVersion);
      // The whole descriptor is read from storage: the catalog keeps only its summary in memory.
      const descriptor = await component.loadDescriptor();
      const deprecation = services.catalog.deprecationOf(component.name, component.version);
      const info = { ...descriptor, allVersions: services.catalog.versions(name), requestVersion, ...(deprecation ? { state: 'deprecated', deprecation } : {}) };
      if (wantsHtml(request)) {
        const baseUrl = services.publicBaseUrl.value;
        const clientUrl = `${baseUrl}oc-client/client.js?v=${loadBrowserClient().version}`;
        const page = componentPage({ baseUrl, descriptor, allVersions: info.allVersions, clientUrl, deprecation });
        return reply.type('text/html; charset=utf-8').send(page);
      }
      return reply.send(info);
    } catch (error) {
      const { status, body } = errorReply(error, name, requestVersion, services.config.development);
      return reply.code(status).send(body);
    }
  };
  app.get('/:name/~info', { schema: schemaOf(false) }, handler);
  app.get('/:name/:version/~info', { schema: schemaOf(true) }, handler);
}

const schemaOf = (withVersion: boolean) => ({
  summary: withVersion ? "A component version's descriptor" : "The latest version's descriptor",
  description: "The published descriptor (`package.json`) with every published version; with `Accept: text/html`, the web UI's component page with a live preview.",
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
        'text/html': { schema: { type: 'string' } },
      },
    },
    ...errorResponses('NOT_FOUND'),
  },
});
