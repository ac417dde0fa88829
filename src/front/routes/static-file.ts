import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import mime from 'mime-types';
import { TesseraError } from '../../errors/errors';
import { errorReply } from '../error-body';
import { errorResponses } from '../openapi/error-responses';
import type { RegistryServices } from '../registry-services';

const SCHEMA = {
  summary: "A component version's static file",
  description:
    '`template.js` and the files of the folders the descriptor declares static, with their content type. An exact version is cached as ' +
    'immutable. Every file carries `X-Content-Type-Options: nosniff` and `Content-Security-Policy: sandbox`.',
  tags: ['Catalog'],
  response: {
    200: { description: 'The file.', content: { '*/*': { schema: { type: 'string', format: 'binary' } } } },
    ...errorResponses('NOT_FOUND', 'STORAGE_UNAVAILABLE', 'STORAGE_CORRUPT'),
  },
} as const;

/**
 * `GET /:name/:version/static/*`: the compiled template and the files of the declared static
 * folders, nothing else of the package. Paths with `..`, backslashes or NUL never reach storage.
 */
export function registerStaticFile(app: FastifyInstance, services: RegistryServices): void {
  app.get('/:name/:version/static/*', { schema: SCHEMA }, async (request: FastifyRequest<{ Params: { name: string; version: string; '*': string } }>, reply: FastifyReply) => {
    const { name, version } = request.params;
    const filePath = request.params['*'];
    try {
      const component = services.catalog.resolve(name, version);
      const segments = filePath.split('/');
      const safe = filePath.length > 0 && !segments.some((s) => s === '..' || s === '.' || s === '') && !/[\\\0]/.test(filePath);
      const declared = filePath === 'template.js' || component.descriptor.oc.files.static.some((folder) => filePath.startsWith(`${folder.replace(/\/+$/, '')}/`));
      const content = safe && declared ? await services.storage.readFile(component.name, component.version, filePath) : undefined;
      if (!content) throw new TesseraError('NOT_FOUND', `File "${filePath}" is not a static file of ${component.name}@${component.version}.`);
      if (version === component.version) reply.header('cache-control', 'public, max-age=31536000, immutable');
      // A tenant's file is never the registry's own page (decisions §11): no content sniffing, and an
      // HTML or SVG file opened directly runs sandboxed, in an origin of its own.
      reply.header('x-content-type-options', 'nosniff').header('content-security-policy', 'sandbox');
      return reply.type(mime.contentType(filePath.split('/').pop()!) || 'application/octet-stream').send(content);
    } catch (error) {
      const { status, body } = errorReply(error, name, version, services.config.development);
      return reply.code(status).send(body);
    }
  });
}
