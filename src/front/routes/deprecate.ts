import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { TesseraError } from '../../errors/errors';
import { errorReply } from '../error-body';
import { assertNotRevoked, authenticate, authorize, exactVersion } from '../lifecycle/lifecycle-permission';
import { limitLifecycleChange } from '../lifecycle/lifecycle-rate-limit';
import { recordChange } from '../lifecycle/record-change';
import { deprecateDoc } from '../openapi/lifecycle-route-docs';
import type { RegistryServices } from '../registry-services';

type DeprecateRequest = FastifyRequest<{ Params: { name: string; version: string }; Body: unknown }>;

/** Longest deprecation message: a sentence or two, shown in `~info` and the web UI. */
const MAX_MESSAGE = 1000;

/**
 * `POST /:name/:version/~deprecate` with `{"message": "…"}` deprecates a version; `DELETE` on the
 * same path takes the deprecation back. The publishing tenant (at any time) or the administrator.
 * The version keeps rendering, with a `Deprecation` header; `~info` and the web UI show the message.
 */
export function registerDeprecate(app: FastifyInstance, services: RegistryServices): void {
  const handler = async (request: DeprecateRequest, reply: FastifyReply) => {
    const { name, version } = request.params;
    const undo = request.method === 'DELETE';
    try {
      const who = authenticate(request.headers.authorization, services);
      await assertNotRevoked(services, who);
      const message = undo ? undefined : messageOf(request.body);
      const component = await exactVersion(services, name, version);
      const actor = await authorize(who, component, 'deprecate', services, Date.now());
      await limitLifecycleChange(services, actor);
      const deprecation = message === undefined ? undefined : { message, date: new Date().toISOString() };
      await services.catalog.deprecate(name, version, deprecation);
      await recordChange(services, request, { action: 'deprecate', name, version, actor, details: deprecation ? { message } : { deprecated: false } });
      return reply.code(200).send(deprecation ? { ok: true, name, version, state: 'deprecated', deprecation } : { ok: true, name, version, state: 'active' });
    } catch (error) {
      const { status, body } = errorReply(error, name, version, services.config.development);
      return reply.code(status).send(body);
    }
  };
  app.post('/:name/:version/~deprecate', { schema: deprecateDoc('POST') }, handler);
  app.delete('/:name/:version/~deprecate', { schema: deprecateDoc('DELETE') }, handler);
}

function messageOf(body: unknown): string {
  const message = typeof body === 'object' && body !== null ? (body as { message?: unknown }).message : undefined;
  if (typeof message !== 'string' || message.trim() === '' || message.length > MAX_MESSAGE) {
    throw new TesseraError('POST_BODY_NOT_VALID', `Send a JSON body {"message": "…"} whose message says why, in at most ${MAX_MESSAGE} characters.`);
  }
  return message.trim();
}
