import type { FastifyInstance, FastifyRequest } from 'fastify';
import { tenantOf } from '../../catalog/tenant-of';
import { TesseraError } from '../../errors/errors';
import { moveName } from '../../names/move-name';
import { currentOwner } from '../../names/name-owner';
import { readNameHistory, type NameRecord } from '../../names/name-records';
import { ADMIN } from '../admin-access';
import type { RegistryServices } from '../registry-services';
import { componentNameParams, nameAnswer, transferNameBody } from './admin-schemas';

type Named = FastifyRequest<{ Params: { name: string } }>;

/**
 * `/~admin/names/:name` (decisions §15): who owns a component's name and how it came to, and the
 * administrator's two moves: a transfer to another tenant, or a release for the next tenant whose
 * patterns cover it to claim with a publish. Both are audited.
 */
export function registerAdminNames(app: FastifyInstance, services: RegistryServices): void {
  const { storage, config, audit } = services;

  app.get('/~admin/names/:name', { schema: { params: componentNameParams, response: { 200: nameAnswer } } }, async (request: Named) => {
    const { name } = request.params;
    const owner = await currentOwner(storage, name, config.tenants.default);
    if (!owner) throw new TesseraError('NOT_FOUND', `No tenant owns the name "${name}": it was never published.`);
    return answer(services, name, await readNameHistory(storage, name));
  });

  app.put(
    '/~admin/names/:name',
    { schema: { params: componentNameParams, body: transferNameBody, response: { 200: nameAnswer } } },
    async (request: FastifyRequest<{ Params: { name: string }; Body: { tenant: string } }>) => {
      const { name } = request.params;
      const to = request.body.tenant;
      await services.tenants.refresh();
      if (!isKnownTenant(services, to)) throw new TesseraError('NOT_FOUND', `No tenant is named "${to}"; create it first with POST /~admin/tenants.`);
      const { record, changed, previous } = await moveName(storage, name, to, config.tenants.default);
      if (changed) await audit.append({ action: 'name-transfer', tenant: to, tokenId: ADMIN, client: request.ip, details: { name, from: previous, to, generation: record.generation } });
      return answer(services, name, await readNameHistory(storage, name));
    },
  );

  app.delete('/~admin/names/:name', { schema: { params: componentNameParams, response: { 200: nameAnswer } } }, async (request: Named) => {
    const { name } = request.params;
    const { record, changed, previous } = await moveName(storage, name, null, config.tenants.default);
    // Under the former owner's name, so that its own page of the log tells it lost the name.
    if (changed) await audit.append({ action: 'name-release', tenant: previous, tokenId: ADMIN, client: request.ip, details: { name, from: previous, generation: record.generation } });
    return answer(services, name, await readNameHistory(storage, name));
  });
}

/** A tenant stored, or one the configuration names (its tokens', the default). */
function isKnownTenant(services: RegistryServices, tenant: string): boolean {
  const { config } = services;
  return services.tenants.tenant(tenant) !== undefined || tenant === config.tenants.default || config.publishTokens.some((token) => token.tenant === tenant);
}

/** The name's owner now, its history oldest first, and its versions this replica serves with their publishers. */
function answer(services: RegistryServices, name: string, history: NameRecord[]): Record<string, unknown> {
  const newest = history.at(-1)!;
  const versions = services.catalog.versions(name).map((version) => {
    const component = services.catalog.resolve(name, version);
    return { version, tenant: tenantOf(component, services.config.tenants.default), generation: component.descriptor.oc.publisher?.generation ?? 1 };
  });
  return { name, owner: newest.tenant, generation: newest.generation, history, versions };
}
