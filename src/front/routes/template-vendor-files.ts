import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { TesseraError } from '../../errors/errors';
import { vendorFile } from '../../templates/vendor-files';
import { errorReply } from '../error-body';
import { errorResponses } from '../openapi/error-responses';
import type { RegistryServices } from '../registry-services';

const SCHEMA = {
  summary: 'A browser runtime template types share',
  description: '`react.js` (React and ReactDOM for `oc-template-react`) or `handlebars.js` (the handlebars runtime), loaded once per page. Cached for an hour, then by ETag.',
  tags: ['Browser client'],
  response: {
    200: { description: 'The script, with its `ETag`.', content: { 'application/javascript': { schema: { type: 'string' } } } },
    304: { description: '`If-None-Match` named its ETag.', type: 'null' },
    ...errorResponses('NOT_FOUND'),
  },
} as const;

/**
 * `GET /oc-client/vendor/<file>`: the runtimes template types share in the browser (React for
 * oc-template-react, the handlebars runtime), served by the registry so that a page loads each
 * once for all its components and needs no CDN. Cached for an hour, then revalidated by ETag.
 */
export function registerTemplateVendorFiles(app: FastifyInstance, services: RegistryServices): void {
  app.get('/oc-client/vendor/:file', { schema: SCHEMA }, async (request: FastifyRequest<{ Params: { file: string } }>, reply: FastifyReply) => {
    const file = vendorFile(request.params.file);
    if (!file) {
      const { status, body } = errorReply(new TesseraError('NOT_FOUND', `There is no vendor file "${request.params.file}".`), 'oc-client', '', services.config.development);
      return reply.code(status).send(body);
    }
    reply.header('etag', file.etag).header('cache-control', 'public, max-age=3600');
    const known = String(request.headers['if-none-match'] ?? '')
      .split(',')
      .map((tag) => tag.trim().replace(/^W\//, ''));
    if (known.includes(file.etag)) return reply.code(304).send();
    return reply.type('application/javascript; charset=utf-8').send(file.content);
  });
}
