import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { TesseraError } from '../../errors/errors';
import { onAbandoned } from '../on-abandoned';
import { RENDER_FAILURES, UNRENDERED } from '../openapi/component-shapes';
import { errorResponses } from '../openapi/error-responses';
import { describeRoute, OPTIONAL_BODY } from '../openapi/register-openapi';
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
  // Not async: the answer's promise is sendRender's (get-component.ts).
  const handler = (request: FastifyRequest<{ Params: ActionParams }>, reply: FastifyReply) => {
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
  app.post('/~actions/:action/:name', { schema: schemaOf(false), config: { swaggerTransform: documentBody } }, handler);
  app.post('/~actions/:action/:name/:version', { schema: schemaOf(true), config: { swaggerTransform: documentBody } }, handler);
}

const schemaOf = (withVersion: boolean) => ({
  summary: withVersion ? "Run an action of a component's version" : "Run an action of a component's latest version",
  description:
    "Runs the action the component's server logic registers, after its middleware, with the JSON body as its parameters " +
    "(validated as a GET's query string; no body means no parameters). Answers OC's unrendered shape, the action's result as `data`.",
  tags: ['Rendering'],
  response: { 200: { description: "The action's result as `data`.", ...UNRENDERED }, ...errorResponses('POST_BODY_NOT_VALID', 'PAYLOAD_TOO_LARGE', ...RENDER_FAILURES) },
});

/** The body is read by the handler (its refusals say what to send), so its schema is the document's only. */
const documentBody = (route: Parameters<typeof describeRoute>[0]) => {
  const { schema, url } = describeRoute(route);
  return { url, schema: { ...schema, [OPTIONAL_BODY]: true, body: { type: 'object', additionalProperties: true, description: "The action's parameters, by name." } } };
};

/** The body is the parameters object; no body at all means no parameters. */
function parametersOf(body: unknown): Record<string, unknown> {
  if (body === undefined) return {};
  if (typeof body === 'string') throw new TesseraError('POST_BODY_NOT_VALID', 'The action body must be a JSON object of parameters, sent with Content-Type: application/json.');
  if (typeof body !== 'object' || body === null || Array.isArray(body)) {
    throw new TesseraError('POST_BODY_NOT_VALID', 'The action body must be a JSON object of parameters.');
  }
  return body as Record<string, unknown>;
}
