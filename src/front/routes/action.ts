import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { TesseraError } from '../../errors/errors';
import { onAbandoned } from '../on-abandoned';
import type { RegistryServices } from '../registry-services';
import { sendRender } from '../send-render';

interface ActionParams {
  action: string;
  name: string;
  version?: string;
}

/**
 * `POST /~actions/:action/:name[/:version]` (decisions §6): runs the named action with the JSON
 * body as its parameters (validated like a GET's query) after the component's middleware, and
 * answers `{…, data: <result>}`. An action the component does not register is NOT_FOUND.
 */
export function registerAction(app: FastifyInstance, services: RegistryServices): void {
  const handler = async (request: FastifyRequest<{ Params: ActionParams }>, reply: FastifyReply) => {
    const { action, name } = request.params;
    const version = request.params.version ?? '';
    return sendRender(reply, services, { name, version }, () =>
      services.pipeline.render({
        name,
        version,
        parameters: parametersOf(request.body),
        headers: request.headers,
        mode: 'rendered',
        depth: 0,
        baseUrl: services.publicBaseUrl.value,
        action,
        requestId: request.id,
        onAbandoned: onAbandoned(reply),
      }),
    );
  };
  app.post('/~actions/:action/:name', handler);
  app.post('/~actions/:action/:name/:version', handler);
}

/** The body is the parameters object; no body at all means no parameters. */
function parametersOf(body: unknown): Record<string, unknown> {
  if (body === undefined) return {};
  if (typeof body === 'string') throw new TesseraError('POST_BODY_NOT_VALID', 'The action body must be a JSON object of parameters, sent with Content-Type: application/json.');
  if (typeof body !== 'object' || body === null || Array.isArray(body)) {
    throw new TesseraError('POST_BODY_NOT_VALID', 'The action body must be a JSON object of parameters.');
  }
  return body as Record<string, unknown>;
}
