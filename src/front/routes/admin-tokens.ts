import type { FastifyInstance, FastifyRequest } from 'fastify';
import { TesseraError } from '../../errors/errors';
import { createToken, revokeToken } from '../../tenants/token-store';
import { ADMIN } from '../admin-access';
import type { RegistryServices } from '../registry-services';
import { createdTokenAnswer, idParams, nameParams, tokenAnswer, tokenView } from './admin-schemas';

/**
 * `/~admin/tenants/:name/tokens` and `/~admin/tokens`: a tenant's publish tokens. A token's secret
 * is answered once, when it is created; listings carry ids only.
 */
export function registerAdminTokens(app: FastifyInstance, services: RegistryServices): void {
  const { storage, tenants: directory, audit } = services;

  app.post(
    '/~admin/tenants/:name/tokens',
    { schema: { params: nameParams, response: { 201: createdTokenAnswer } } },
    async (request: FastifyRequest<{ Params: { name: string } }>, reply) => {
      const { name } = request.params;
      await directory.refresh();
      if (!directory.tenant(name)) throw new TesseraError('NOT_FOUND', `No tenant is named "${name}"; create it first with POST /~admin/tenants.`);
      const created = await createToken(storage, name, ADMIN);
      await audit.append({ action: 'token-create', tenant: name, tokenId: ADMIN, client: request.ip, details: { token: created.id } });
      // In force on every front thread of this replica before its secret is answered.
      await services.tenantsChanged();
      return reply.code(201).header('cache-control', 'no-store').send(tokenView(created, created.token));
    },
  );

  app.get(
    '/~admin/tokens',
    {
      schema: {
        querystring: { type: 'object', additionalProperties: false, properties: { tenant: nameParams.properties.name } },
        response: { 200: { type: 'object', properties: { tokens: { type: 'array', items: tokenAnswer } } } },
      },
    },
    async (request: FastifyRequest<{ Querystring: { tenant?: string } }>) => {
      await directory.refresh();
      return { tokens: directory.tokens(request.query.tenant).map((token) => tokenView(token)) };
    },
  );

  app.delete('/~admin/tokens/:id', { schema: { params: idParams, response: { 200: tokenAnswer } } }, async (request: FastifyRequest<{ Params: { id: string } }>) => {
    const { id } = request.params;
    const { revocation, created } = await revokeToken(storage, id, ADMIN);
    await services.tenantsChanged();
    const token = directory.token(id)!;
    // Revoking twice answers the first revocation and changes nothing: one entry.
    if (created) await audit.append({ action: 'token-revoke', tenant: token.tenant, tokenId: ADMIN, client: request.ip, details: { token: id } });
    return tokenView({ ...token, revokedAt: revocation.revokedAt });
  });
}
