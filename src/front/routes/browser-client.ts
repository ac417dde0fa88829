import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { loadBrowserClient, type ServedFile } from '../browser-client-files';

/** A page names the script with its version (`?v=`) to cache it for good; without it, for five minutes, then by ETag. */
const VERSIONED = 'public, max-age=31536000, immutable';
const UNVERSIONED = 'public, max-age=300';

/** `GET /oc-client/client.js` and its source map: the browser client (decisions §10). */
export function registerBrowserClient(app: FastifyInstance): void {
  const client = loadBrowserClient();
  const serve = (file: ServedFile, type: string) => (request: FastifyRequest<{ Querystring: { v?: string } }>, reply: FastifyReply) => {
    reply.header('etag', file.etag).header('cache-control', request.query.v === client.version ? VERSIONED : UNVERSIONED);
    const known = String(request.headers['if-none-match'] ?? '')
      .split(',')
      .map((tag) => tag.trim().replace(/^W\//, ''));
    if (known.includes(file.etag)) return reply.code(304).send();
    return reply.type(type).send(file.content);
  };
  app.get('/oc-client/client.js', { schema: schemaOf('script') }, serve(client.script, 'application/javascript; charset=utf-8'));
  app.get('/oc-client/client.js.map', { schema: schemaOf('source map') }, serve(client.sourceMap, 'application/json; charset=utf-8'));
}

const schemaOf = (file: 'script' | 'source map') => ({
  summary: file === 'script' ? 'The browser client' : "The browser client's source map",
  description:
    file === 'script'
      ? 'The script that renders `<oc-component>` elements in any page, minified. With `?v=` naming its version (as the web UI links it), cached for good; else for five minutes, then by ETag.'
      : 'The source map of `client.js`, cached as the script is.',
  tags: ['Browser client'],
  response: {
    200: {
      description: `The ${file}, with its \`ETag\`.`,
      content: { [file === 'script' ? 'application/javascript' : 'application/json']: { schema: { type: 'string' } } },
    },
    304: { description: '`If-None-Match` named its ETag.', type: 'null' },
  },
});
