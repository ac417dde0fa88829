import t from 'tap';
import { Validator } from '@seriousme/openapi-schema-validator';
import type { RegistryConfig } from '../../src/config/config';
import { fixture, request, startRegistry } from '../helpers/start-registry';
import { freshGet } from '../helpers/fresh-get';
import { registeredRoutes } from '../helpers/registered-routes';

/** Answered, and left out of the document on purpose: CORS preflight (`OPTIONS *` is no OpenAPI path), described in its text. */
const NOT_DOCUMENTED = ['OPTIONS *'];

const METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'];

interface Operation {
  summary?: string;
  tags?: string[];
  responses: Record<string, { content?: Record<string, { schema?: { $ref?: string } }> }>;
}
type OpenApiDocument = { openapi: string; servers: Array<{ url: string }>; paths: Record<string, Record<string, Operation>> };

/** The document's operations as fastify names its routes: `/{name}` is `/:name`, `/{*}` is `/*`. */
const documentedRoutes = (document: OpenApiDocument): string[] =>
  Object.entries(document.paths)
    .flatMap(([path, item]) =>
      Object.keys(item)
        .filter((key) => METHODS.includes(key))
        .map((method) => `${method.toUpperCase()} ${path.replace(/\{\*\}/g, '*').replace(/\{([^}]+)\}/g, ':$1')}`),
    )
    .sort();

const operations = (document: OpenApiDocument): Array<[string, Operation]> =>
  Object.entries(document.paths).flatMap(([path, item]) =>
    Object.entries(item)
      .filter(([method]) => METHODS.includes(method))
      .map(([method, operation]): [string, Operation] => [`${method.toUpperCase()} ${path}`, operation]),
  );

t.test('GET /openapi.json is a valid OpenAPI 3.1 document of exactly the routes the registry answers', async (t) => {
  const { url, registry } = await startRegistry(t, [fixture('browser-greeting')]);
  const answer = await request(`${url}openapi.json`);
  t.equal(answer.status, 200);
  t.match(answer.headers.get('content-type'), /^application\/json/);
  const document = answer.body as OpenApiDocument;

  const validator = new Validator();
  const validation = await validator.validate(structuredClone(document));
  t.same(validation, { valid: true }, 'valid against the OpenAPI 3.1 schema');
  t.equal(validator.version, '3.1');
  t.equal(document.openapi, '3.1.0');
  t.same(document.servers, [{ url: url.replace(/\/$/, '') }], 'the registry names its own public address');

  const registered = registeredRoutes(registry.app);
  const heads = registered.filter((route) => route.startsWith('HEAD '));
  t.same(heads.filter((head) => !registered.includes(head.replace(/^HEAD /, 'GET '))), [], 'every HEAD route is the one fastify adds beside a GET');
  const answered = registered.filter((route) => !route.startsWith('HEAD ') && !NOT_DOCUMENTED.includes(route));
  t.same(documentedRoutes(document), answered, 'every route is documented with its method, and nothing else is');
  t.ok(answered.includes('PUT /:name/:version') && answered.includes('GET /:name/:version/static/*'), 'the routes are read from the app itself');
  t.ok(document.paths['/{name}/{version}'], "fastify's /:name/:version is /{name}/{version}");

  for (const [route, operation] of operations(document)) {
    t.ok(operation.summary && operation.tags?.length, `${route} has a summary and a tag`);
    const failures = Object.entries(operation.responses).filter(([status]) => /^[45]/.test(status));
    for (const [status, response] of failures) {
      t.equal(response.content?.['application/json']?.schema?.$ref, '#/components/schemas/ErrorBody', `${route} ${status} answers the error body`);
    }
  }
  const failures = document.paths['/{name}']!.get!.responses;
  t.same(Object.keys(failures).sort(), ['200', '400', '404', '500', '501', '503', '504', '508'], 'a render documents every status it can fail with');
});

t.test('the document answers what the routes do: a query its schema refuses is a coded 400', async (t) => {
  const { url } = await startRegistry(t, []);
  const refused = await request(`${url}?per=100000`, { headers: { accept: 'text/html' } });
  t.equal(refused.status, 400);
  t.same(refused.body, {
    code: 'NOT_VALID_REQUEST',
    error: 'Query parameter "per" must be <= 200.',
    name: '',
    requestVersion: '',
    details: { parameters: [{ name: 'per', problem: 'must be <= 200' }] },
  });
  const { body: document } = await request(`${url}openapi.json`);
  t.same(
    (document as OpenApiDocument).paths['/']!.get!.responses['400']!.content!['application/json']!.schema,
    { $ref: '#/components/schemas/ErrorBody' },
    'and documents it',
  );
});


const TWO_FRONTS = (config: RegistryConfig): void => {
  config.limits.frontThreads = 2;
};

t.test('every front thread serves the same document', async (t) => {
  const { url, registry } = await startRegistry(t, [], TWO_FRONTS);
  const GETS = 30;
  const documents = await Promise.all(Array.from({ length: GETS }, async () => (await freshGet(`${url}openapi.json`)).text));
  t.equal(new Set(documents).size, 1, 'one document, whichever thread answered');
  t.ok(JSON.parse(documents[0]!).paths['/{name}/{version}'].put, 'with every route');
  const counted = (metrics: string) => Number(/^tessera_http_requests_total\{method="GET",route="\/openapi.json",status="200"\} (\d+)$/m.exec(metrics)?.[1] ?? 0);
  const mainThreadOnly = counted(await registry.metrics.registry.metrics());
  t.ok(mainThreadOnly > 0 && mainThreadOnly < GETS, `the main thread answered ${mainThreadOnly} of ${GETS}, the other thread the rest`);
});
