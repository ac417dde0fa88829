import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { clientTemplatesOf, renderModeOf } from '../negotiate';
import { onAbandoned } from '../on-abandoned';
import type { RegistryServices } from '../registry-services';
import { sendRender } from '../send-render';

interface ComponentParams {
  name: string;
  version?: string;
}

/** `GET /:name` and `GET /:name/:version`: rendered, unrendered or info, by `Accept`. */
export function registerGetComponent(app: FastifyInstance, services: RegistryServices): void {
  const handler = async (request: FastifyRequest<{ Params: ComponentParams }>, reply: FastifyReply) => {
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
  app.get('/:name', handler);
  app.get('/:name/:version', handler);
}
