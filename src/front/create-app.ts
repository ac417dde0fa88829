import Fastify, { LogController, type FastifyError, type FastifyInstance } from 'fastify';
import { TesseraError } from '../errors/errors';
import { recordHttpMetrics } from '../metrics/http-metrics';
import { registerCors } from './cors';
import { registerOpenApi } from './openapi/register-openapi';
import { errorReply, unexpectedError } from './error-body';
import { answerClientError, frameworkErrorAnswer, requestValidationError } from './framework-errors';
import type { RegistryServices } from './registry-services';
import { REQUEST_ID_HEADER, requestIdOf } from './request-id';
import { registerAction } from './routes/action';
import { registerAdmin } from './routes/admin';
import { registerBatch } from './routes/batch';
import { registerBrowserClient } from './routes/browser-client';
import { registerComponentInfo } from './routes/component-info';
import { registerGetComponent } from './routes/get-component';
import { registerHealth } from './routes/health';
import { registerListComponents } from './routes/list-components';
import { registerMetrics } from './routes/metrics';
import { registerOcClientComponent } from './routes/oc-client-component';
import { registerDeprecate } from './routes/deprecate';
import { registerOpenApiDocument } from './routes/openapi';
import { registerPublish } from './routes/publish';
import { registerStaticFile } from './routes/static-file';
import { registerTail } from './routes/tail';
import { registerTemplateVendorFiles } from './routes/template-vendor-files';
import { answerStalledBodies } from './stalled-bodies';
import { releaseMemoryWhenQuiet } from './idle-memory';
import { registerUnpublish } from './routes/unpublish';

/** Seconds a client is told to wait (`Retry-After`) when the registry answers 503. */
const RETRY_AFTER_SECONDS = 1;

/** The HTTP front: thin routes over the render pipeline, catalog and storage. */
export async function createApp(services: RegistryServices, options: { logger?: boolean } = {}): Promise<FastifyInstance> {
  const app = Fastify({
    logger: options.logger ?? false,
    // Two JSON lines per request cost a rendered GET about a fifth of its throughput: an access log is asked for.
    logController: new LogController({ disableRequestLogging: !services.config.logRequests }),
    // Every log line of a request carries its id (`reqId`), taken from the load balancer's X-Request-Id when sane.
    requestIdHeader: false,
    genReqId: requestIdOf,
    // While closing, a request that still arrives on an open connection is answered normally (with
    // `Connection: close`, see below) rather than with fastify's uncoded 503.
    return503OnClosing: false,
    bodyLimit: services.config.limits.jsonBodyBytes,
    // A `__proto__` or `constructor.prototype` key in a JSON body is dropped, not refused with
    // fastify's sentence that calls valid JSON invalid; no object of the registry ever inherits from it.
    onProtoPoisoning: 'remove',
    onConstructorPoisoning: 'remove',
    // Component names are case-sensitive and a trailing slash names the same resource.
    routerOptions: { ignoreTrailingSlash: true, maxParamLength: 256 },
    frameworkErrors: frameworkErrorAnswer(services.config),
    clientErrorHandler: answerClientError,
    // Headers that stop arriving are answered 408 by Node itself; it looks at its connections once
    // a second rather than every 30 s, so the bound holds to about a second.
    http: { headersTimeout: services.config.limits.requestHeadersTimeoutMs, connectionsCheckingInterval: 1000 },
  });

  recordHttpMetrics(app, services.metrics);
  const answered = releaseMemoryWhenQuiet(app);
  answerStalledBodies(app, services.config.limits.requestBodyIdleMs, services.config.development);
  registerCors(app, services.config);
  // Every answer: counted for the quiet front's collection (idle-memory.ts); OVERLOADED (503) tells the
  // client when to come back (decisions §2). A callback hook, not an async one: it runs on every
  // response and needs no promise.
  app.addHook('onSend', (request, reply, payload, done) => {
    answered();
    if (reply.statusCode === 503 && !reply.hasHeader('retry-after')) reply.header('retry-after', String(RETRY_AFTER_SECONDS));
    reply.header(REQUEST_ID_HEADER, request.id);
    // A draining replica lets each kept-alive connection go after its answer, so clients move on.
    if (services.readiness.draining) reply.header('connection', 'close');
    done(null, payload);
  });

  // Before the routes: the OpenAPI plugin learns each route as it is added.
  await registerOpenApi(app);
  registerListComponents(app, services);
  registerHealth(app, services);
  registerMetrics(app, services);
  registerGetComponent(app, services);
  registerComponentInfo(app, services);
  registerStaticFile(app, services);
  registerPublish(app, services);
  registerUnpublish(app, services);
  registerDeprecate(app, services);
  registerAdmin(app, services);
  registerTail(app, services);
  registerBatch(app, services);
  registerAction(app, services);
  registerOcClientComponent(app, services);
  registerBrowserClient(app);
  registerTemplateVendorFiles(app, services);
  registerOpenApiDocument(app, services);

  app.setNotFoundHandler((request, reply) => {
    const { status, body } = errorReply(new TesseraError('NOT_FOUND', `No route answers ${request.method} ${request.url.split('?')[0]}.`), '', '');
    return reply.code(status).send(body);
  });
  app.setErrorHandler((error: FastifyError, request, reply) => {
    const coded = fastifyErrorToCoded(error, request.query);
    if (coded.code === 'GENERIC_ERROR') request.log.error(error);
    const { status, body } = errorReply(coded, '', '', services.config.development);
    return reply.code(status).send(body);
  });
  return app;
}

/** fastify's own failures (body parsing, size, a request its route's schema refuses) as coded errors. */
function fastifyErrorToCoded(error: FastifyError, query: unknown): TesseraError {
  if (error instanceof TesseraError) return error;
  if (error.code === 'FST_ERR_CTP_BODY_TOO_LARGE') return new TesseraError('PAYLOAD_TOO_LARGE', 'The request body is over its size limit.');
  const invalidRequest = requestValidationError(error, query);
  if (invalidRequest) return invalidRequest;
  if (error.code?.startsWith('FST_ERR_CTP_') || error.validation) {
    return new TesseraError('POST_BODY_NOT_VALID', `The request body is not valid: ${error.message}.`);
  }
  return unexpectedError(error);
}
