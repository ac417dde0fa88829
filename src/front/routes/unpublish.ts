import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { TesseraError } from '../../errors/errors';
import { errorReply } from '../error-body';
import { assertNotRevoked, authenticate, authorize, exactVersion } from '../lifecycle/lifecycle-permission';
import { limitLifecycleChange } from '../lifecycle/lifecycle-rate-limit';
import { recordChange } from '../lifecycle/record-change';
import { tenantOf } from '../../catalog/tenant-of';
import { releaseVersionQuota } from '../../tenants/release-version-quota';
import { UNPUBLISH_DOC } from '../openapi/lifecycle-route-docs';
import type { RegistryServices } from '../registry-services';

type UnpublishRequest = FastifyRequest<{ Params: { name: string; version: string } }>;

/**
 * `DELETE /:name/:version` (decisions §14): the publishing tenant within `unpublishWindowHours`
 * of the publish, or the administrator at any time, unpublishes a version. Its tombstone is
 * written, then its journal entry: every replica drops the version at its next poll, and from
 * then on answers `410 GONE` for it. Its number is never published again.
 */
export function registerUnpublish(app: FastifyInstance, services: RegistryServices): void {
  app.delete('/:name/:version', { schema: UNPUBLISH_DOC }, async (request: UnpublishRequest, reply: FastifyReply) => {
    const { name, version } = request.params;
    try {
      const who = authenticate(request.headers.authorization, services);
      await assertNotRevoked(services, who);
      const component = await exactVersion(services, name, version);
      const now = Date.now();
      const actor = await authorize(who, component, 'unpublish', services, now);
      await limitLifecycleChange(services, actor);
      // Decided once in storage: of requests racing to unpublish it, the others find it gone.
      if (!(await services.catalog.unpublish(name, version, { date: new Date(now).toISOString(), tenant: actor.tenant }))) {
        throw new TesseraError('GONE', `${name}@${version} was unpublished meanwhile by another request.`);
      }
      await releaseVersionQuota(services.storage, services.tenants, tenantOf(component, services.config.tenants.default), name);
      await recordChange(services, request, { action: 'unpublish', name, version, actor });
      return reply.code(200).send({ ok: true, name, version, state: 'unpublished' });
    } catch (error) {
      const { status, body } = errorReply(error, name, version, services.config.development);
      return reply.code(status).send(body);
    }
  });
}
