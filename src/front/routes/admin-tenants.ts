import type { FastifyInstance, FastifyRequest } from 'fastify';
import { TesseraError } from '../../errors/errors';
import type { Tenant } from '../../tenants/tenant-records';
import { createTenant, updateTenant, type TenantSettings } from '../../tenants/tenant-store';
import { readUsage } from '../../tenants/tenant-usage';
import { versionsOf } from '../../tenants/tenant-versions';
import { ADMIN } from '../admin-access';
import type { RegistryServices } from '../registry-services';
import { createTenantBody, nameParams, tenantAnswer, updateTenantBody } from './admin-schemas';

type Named = FastifyRequest<{ Params: { name: string } }>;

/** `/~admin/tenants`: create, list, show and change the tenants stored beside the components. */
export function registerAdminTenants(app: FastifyInstance, services: RegistryServices): void {
  const { storage, tenants: directory, audit } = services;

  app.get('/~admin/tenants', { schema: { response: { 200: { type: 'object', properties: { tenants: { type: 'array', items: tenantAnswer } } } } } }, async () => {
    await directory.refresh();
    return { tenants: directory.tenants() };
  });

  app.post(
    '/~admin/tenants',
    { schema: { body: createTenantBody, response: { 201: tenantAnswer } } },
    async (request: FastifyRequest<{ Body: Partial<TenantSettings> & { name: string; components: string[] } }>, reply) => {
      const { name, quotas = {}, ...settings } = request.body;
      const tenant = await createTenant(storage, name, { ...settings, quotas }, ADMIN);
      await audit.append({ action: 'tenant-create', tenant: name, tokenId: ADMIN, client: request.ip, details: settingsOf(tenant) });
      await services.tenantsChanged();
      return reply.code(201).send(tenant);
    },
  );

  app.get('/~admin/tenants/:name', { schema: { params: nameParams, response: { 200: tenantAnswer } } }, async (request: Named) => {
    await directory.refresh();
    const tenant = directory.tenant(request.params.name);
    if (!tenant) throw new TesseraError('NOT_FOUND', `No tenant is named "${request.params.name}".`);
    const usage = await readUsage(storage, tenant.name);
    const liveTokens = directory.tokens(tenant.name).filter((token) => token.revokedAt === undefined).length;
    return { ...tenant, usage: { ...usage, versions: versionsOf(services.catalog, services.config.tenants.default, tenant.name), liveTokens } };
  });

  app.put(
    '/~admin/tenants/:name',
    { schema: { params: nameParams, body: updateTenantBody, response: { 200: tenantAnswer } } },
    async (request: FastifyRequest<{ Params: { name: string }; Body: Partial<TenantSettings> }>) => {
      const tenant = await updateTenant(storage, directory, request.params.name, request.body, ADMIN);
      await audit.append({ action: 'tenant-update', tenant: tenant.name, tokenId: ADMIN, client: request.ip, details: settingsOf(tenant) });
      await services.tenantsChanged();
      return tenant;
    },
  );
}

const settingsOf = (tenant: Tenant): Record<string, unknown> => ({ components: tenant.components, quotas: tenant.quotas, weight: tenant.weight });
