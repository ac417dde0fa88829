import type { FastifyInstance, FastifyRequest } from 'fastify';
import { wantsHtml } from '../negotiate';
import { errorResponses } from '../openapi/error-responses';
import { queryValidator } from '../query-validator';
import type { RegistryServices } from '../registry-services';
import { componentListPage } from '../web-ui/component-list-page';
import { MAX_PAGE_SIZE, PAGE_SIZE, searchComponents } from '../web-ui/component-search';

interface ListQuery {
  meta?: string;
  q?: string;
  page?: number;
  per?: number;
}

const URLS = {
  type: 'object',
  title: 'Component list',
  required: ['href', 'type', 'components'],
  properties: { href: { type: 'string' }, type: { const: 'oc-registry' }, components: { type: 'array', items: { type: 'string', description: "A component's URL." } } },
} as const;

const WITH_META = {
  type: 'object',
  title: 'Component list with metadata (`?meta=true`)',
  required: ['href', 'type', 'components'],
  properties: {
    href: { type: 'string' },
    type: { const: 'oc-registry' },
    components: {
      type: 'array',
      items: {
        type: 'object',
        required: ['name', 'version', 'description', 'state', 'publishDate'],
        properties: {
          name: { type: 'string' },
          version: { type: 'string', description: 'The latest version.' },
          description: { type: 'string' },
          state: { type: 'string', description: '`active`, `experimental`, `deprecated`, or empty.' },
          publishDate: { type: 'string', format: 'date-time' },
        },
      },
    },
  },
} as const;

const SCHEMA = {
  summary: 'List the published components',
  description:
    "OC's registry list. With `Accept: text/html`, the web UI's list: one page of the components, searched on the server " +
    '(`q`, `page`, `per` apply to it only).',
  tags: ['Catalog'],
  querystring: {
    type: 'object',
    properties: {
      meta: { type: 'string', description: "`true` lists each component's latest version with its metadata." },
      q: { type: 'string', description: 'Web UI: the words every listed component has in its name, description or tenant (ignoring case).' },
      page: { type: 'integer', minimum: 1, description: 'Web UI: the page, from 1; past the last page, the last page.' },
      per: { type: 'integer', minimum: 1, maximum: MAX_PAGE_SIZE, description: `Web UI: components per page (${PAGE_SIZE} unless given).` },
    },
  },
  response: {
    200: {
      description: 'The components, as JSON or as the web UI page.',
      content: { 'application/json': { schema: { oneOf: [URLS, WITH_META] } }, 'text/html': { schema: { type: 'string' } } },
    },
    ...errorResponses('NOT_VALID_REQUEST'),
  },
} as const;

/** `GET /`: the published components (`?meta=true` adds each latest version's metadata). */
export function registerListComponents(app: FastifyInstance, services: RegistryServices): void {
  app.get('/', { schema: SCHEMA, validatorCompiler: queryValidator }, async (request: FastifyRequest<{ Querystring: ListQuery }>, reply) => {
    const baseUrl = services.publicBaseUrl.value;
    const names = services.catalog.names();
    if (wantsHtml(request)) {
      const latest = names.map((name) => services.catalog.latest(name)!.descriptor);
      const { q = '', page = 1, per = PAGE_SIZE } = request.query;
      return reply.type('text/html; charset=utf-8').send(componentListPage(baseUrl, searchComponents(latest, { query: q, page, per }), (name, version) => services.catalog.deprecationOf(name, version) !== undefined));
    }
    if (request.query.meta === 'true') {
      const components = names.map((name) => {
        const { descriptor } = services.catalog.latest(name)!;
        const state = services.catalog.deprecationOf(name, descriptor.version) ? 'deprecated' : (descriptor.oc.state ?? '');
        return { name, version: descriptor.version, description: descriptor.description ?? '', state, publishDate: new Date(descriptor.oc.publisher?.date ?? descriptor.oc.date).toISOString() };
      });
      return { href: baseUrl, type: 'oc-registry', components };
    }
    return { href: baseUrl, type: 'oc-registry', components: names.map((name) => baseUrl + name) };
  });
}
