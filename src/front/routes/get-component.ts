import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { applyComponentHeaders } from '../apply-component-headers';
import { errorReply } from '../error-body';
import { baseUrlOf, clientTemplatesOf, renderModeOf } from '../negotiate';
import type { RegistryServices } from '../registry-services';

interface ComponentParams {
  name: string;
  version?: string;
}

/** `GET /:name` and `GET /:name/:version`: rendered, unrendered or info, by `Accept`. */
export function registerGetComponent(app: FastifyInstance, services: RegistryServices): void {
  const handler = async (request: FastifyRequest<{ Params: ComponentParams }>, reply: FastifyReply) => {
    const { name } = request.params;
    const version = request.params.version ?? '';
    try {
      const result = await services.pipeline.render({
        name,
        version,
        parameters: request.query as Record<string, unknown>,
        headers: request.headers,
        mode: renderModeOf(request),
        depth: 0,
        baseUrl: baseUrlOf(request, services.config),
        clientTemplates: clientTemplatesOf(request),
      });
      applyComponentHeaders(reply, result);
      return reply.code(200).send(result.body);
    } catch (error) {
      const { status, body } = errorReply(error, name, version, services.config.development);
      return reply.code(status).send(body);
    }
  };
  app.get('/:name', handler);
  app.get('/:name/:version', handler);
}
