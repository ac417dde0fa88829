import type { FastifyInstance } from 'fastify';
import type { RegistryServices } from '../registry-services';

/** `GET /openapi.json`: the OpenAPI 3.1 document of every route (`../openapi/register-openapi.ts`), served at this registry's public address. */
export function registerOpenApiDocument(app: FastifyInstance, services: RegistryServices): void {
  app.get(
    '/openapi.json',
    {
      schema: {
        summary: "This registry's OpenAPI document",
        description: 'OpenAPI 3.1, generated from the schemas the routes declare; `servers` names the public address.',
        tags: ['Operations'],
        response: { 200: { description: 'The OpenAPI document.', type: 'object', additionalProperties: true } },
      },
    },
    async () => ({ ...app.swagger(), servers: [{ url: services.publicBaseUrl.value.replace(/\/$/, '') }] }),
  );
}
