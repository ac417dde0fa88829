import type { FastifyReply } from 'fastify';
import type { RenderResult } from '../pipeline/render';
import { applyComponentHeaders } from './apply-component-headers';
import { applyDeprecationHeaders } from './deprecation-headers';
import { errorReply } from './error-body';
import type { RegistryServices } from './registry-services';

/**
 * Answers one render from outside (GET, action): its body with the headers and cookies the component
 * set, or its coded error. `render` runs inside the guard, so a bad request fails the same way.
 */
export async function sendRender(
  reply: FastifyReply,
  services: RegistryServices,
  requested: { name: string; version: string },
  render: () => Promise<RenderResult>,
): Promise<FastifyReply> {
  try {
    const result = await render();
    applyComponentHeaders(reply, result);
    applyDeprecationHeaders(reply, services, requested.name, result.body['version']);
    return reply.code(200).send(result.body);
  } catch (error) {
    const { status, body } = errorReply(error, requested.name, requested.version, services.config.development);
    return reply.code(status).send(body);
  }
}
