import type { FastifyReply } from 'fastify';
import type { RegistryServices } from './registry-services';

/**
 * On a render of a deprecated version: `Deprecation: @<unix seconds>` (RFC 9745) and a `Link` to
 * the version's page, where the deprecation's message is (`rel="deprecation"`, RFC 9745 §3).
 */
export function applyDeprecationHeaders(reply: FastifyReply, services: RegistryServices, name: string, version: unknown): void {
  if (typeof version !== 'string') return;
  const deprecation = services.catalog.deprecationOf(name, version);
  if (!deprecation) return;
  reply.header('deprecation', `@${Math.floor(Date.parse(deprecation.date) / 1000)}`);
  reply.header('link', `<${services.publicBaseUrl.value}${name}/${version}/~info>; rel="deprecation"; type="text/html"`);
}
