import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { clientTemplatesOf, renderModeOf } from '../negotiate';
import { onAbandoned } from '../on-abandoned';
import { INFO_ONLY, RENDERED, RENDER_FAILURES, UNRENDERED } from '../openapi/component-shapes';
import { errorResponses } from '../openapi/error-responses';
import type { RegistryServices } from '../registry-services';
import { sendRender } from '../send-render';

interface ComponentParams {
  name: string;
  version?: string;
}

/** `GET /:name` and `GET /:name/:version`: rendered, unrendered or info, by `Accept`. */
export function registerGetComponent(app: FastifyInstance, services: RegistryServices): void {
  // Not async: the answer's promise is sendRender's, passed to fastify as it is, not wrapped in one more.
  const handler = (request: FastifyRequest<{ Params: ComponentParams }>, reply: FastifyReply) => {
    const { name } = request.params;
    // `//x` routes here with an empty name: a path no component has, answered as the router's 404.
    if (name === '') return reply.callNotFound();
    const version = request.params.version ?? '';
    return sendRender(reply, services, { name, version }, () =>
      services.pipeline.render({
        name,
        version,
        parameters: request.query as Record<string, unknown>,
        headers: request.headers,
        mode: renderModeOf(request),
        depth: 0,
        baseUrl: services.publicBaseUrl.value,
        clientTemplates: clientTemplatesOf(request),
        requestId: request.id,
        onAbandoned: onAbandoned(reply),
      }),
    );
  };
  app.get('/:name', { schema: schemaOf(false) }, handler);
  app.get('/:name/:version', { schema: schemaOf(true) }, handler);
}

const schemaOf = (withVersion: boolean) => ({
  summary: withVersion ? 'Render a version of a component' : 'Render the latest version of a component',
  description:
    "Runs the component's server logic in its sandbox and answers the finished HTML. The query string holds the component's " +
    'parameters (`name=value`, each given once), validated against those it declares; `__ocAcceptLanguage` stands for `Accept-Language`. ' +
    '`Accept: application/vnd.oc.unrendered+json` answers the data and the template instead; `application/vnd.oc.info+json` only ' +
    'which version answers, without running server logic. The headers and cookies the component sets are in the answer.',
  tags: ['Rendering'],
  response: {
    200: {
      description: 'Rendered, unrendered or info, by `Accept`.',
      content: { 'application/json': { schema: { anyOf: [RENDERED, UNRENDERED, INFO_ONLY] } } },
    },
    ...errorResponses(...RENDER_FAILURES),
  },
});
