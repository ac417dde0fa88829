import type { FastifyInstance, FastifyRequest } from 'fastify';
import { wantsHtml } from '../negotiate';
import type { RegistryServices } from '../registry-services';
import { componentListPage } from '../web-ui/component-list-page';

/** `GET /`: the published components (`?meta=true` adds each latest version's metadata). */
export function registerListComponents(app: FastifyInstance, services: RegistryServices): void {
  app.get('/', async (request: FastifyRequest<{ Querystring: { meta?: string; q?: string } }>, reply) => {
    const baseUrl = services.publicBaseUrl.value;
    const names = services.catalog.names();
    if (wantsHtml(request)) {
      const latest = names.map((name) => services.catalog.latest(name)!.descriptor);
      return reply.type('text/html; charset=utf-8').send(componentListPage(baseUrl, latest, request.query.q ?? ''));
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
