import type { FastifyInstance, FastifyRequest } from 'fastify';
import { wantsHtml } from '../negotiate';
import { escapeHtml } from '../../pipeline/escape-html';
import type { RegistryServices } from '../registry-services';

/** `GET /`: the published components (`?meta=true` adds each latest version's metadata). */
export function registerListComponents(app: FastifyInstance, services: RegistryServices): void {
  app.get('/', async (request: FastifyRequest<{ Querystring: { meta?: string } }>, reply) => {
    const baseUrl = services.publicBaseUrl.value;
    const names = services.catalog.names();
    if (wantsHtml(request)) {
      const rows = names
        .map((name) => {
          const latest = services.catalog.latest(name)!;
          return `<li><a href="${escapeHtml(`${baseUrl}${name}/~info`)}">${escapeHtml(name)}</a> ${escapeHtml(latest.version)}: ${escapeHtml(latest.descriptor.description ?? '')}</li>`;
        })
        .join('');
      return reply.type('text/html; charset=utf-8').send(`<!doctype html><html><head><meta charset="utf-8"><title>Tessera</title></head><body><h1>Components</h1><ul>${rows}</ul></body></html>`);
    }
    if (request.query.meta === 'true') {
      const components = names.map((name) => {
        const { descriptor } = services.catalog.latest(name)!;
        return { name, version: descriptor.version, description: descriptor.description ?? '', state: descriptor.oc.state ?? '', publishDate: new Date(descriptor.oc.publisher?.date ?? descriptor.oc.date).toISOString() };
      });
      return { href: baseUrl, type: 'oc-registry', components };
    }
    return { href: baseUrl, type: 'oc-registry', components: names.map((name) => baseUrl + name) };
  });
}
