import cors, { type FastifyCorsOptions } from '@fastify/cors';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { RegistryConfig } from '../config/config';

/**
 * CORS (decisions §10): pages on other origins may render components, batch, read info, call
 * actions and load static files, `Access-Control-Allow-Origin` being `*` or the configured origin
 * that asked; preflight `OPTIONS` answers for those. Publishing never gets CORS headers, nor does
 * its preflight, so no page can upload from a browser.
 *
 * Preflights are @fastify/cors's, registered in a scope of their own so that its hook runs for its
 * `OPTIONS` route only. Every other answer gets its two headers from one small hook, as the plugin
 * would write them (`Vary: Origin`, then the allowed origin): the plugin's work on each request
 * (its options copied twice, the route's options built twice, `Vary` parsed) cost a rendered GET
 * 1 to 1.7 µs of the front's 27 to 32 (bench/FINDINGS.md, "CORS in a hook, strings beside a frame's
 * JSON, entry limits on a grid").
 */
export function registerCors(app: FastifyInstance, config: RegistryConfig): void {
  const headersFor = answerHeaders(config);
  app.addHook('onRequest', (request, reply, done) => {
    if (request.method !== 'OPTIONS' && request.method !== 'PUT') reply.headers(headersFor(request.headers.origin));
    done();
  });
  const allowed: FastifyCorsOptions = {
    origin: allowsAny(config) ? '*' : config.cors.origins,
    methods: ['GET', 'HEAD', 'POST'],
    maxAge: 600,
    // A bare OPTIONS (no Origin) is answered 204 rather than with a body outside the error table.
    strictPreflight: false,
  };
  void app.register(async (preflights) => {
    await preflights.register(cors, {
      delegator: (request, callback) => callback(null, isPublishing(request) ? { origin: false } : allowed),
    });
  });
}

/** Each configuration's rule, made once: the hook asks it on every request, the answers before routing now and then. */
const rules = new WeakMap<RegistryConfig, (origin: string | undefined) => Record<string, string>>();

/**
 * The CORS headers of an answer to a request from `origin` (not a preflight, not publishing), as
 * the plugin wrote them: `Vary: Origin` always, then the origin allowed, if any.
 */
function answerHeaders(config: RegistryConfig): (origin: string | undefined) => Record<string, string> {
  let rule = rules.get(config);
  if (rule) return rule;
  if (allowsAny(config)) {
    const any = { vary: 'Origin', 'access-control-allow-origin': '*' };
    rule = () => any;
  } else {
    const none = { vary: 'Origin' };
    const listed = new Map(config.cors.origins.map((origin) => [origin, { vary: 'Origin', 'access-control-allow-origin': origin }]));
    rule = (origin) => (origin === undefined ? none : (listed.get(origin) ?? none));
  }
  rules.set(config, rule);
  return rule;
}

/**
 * The CORS headers of an answer given before any route runs (a URL the router cannot read), where
 * the hooks never ran: the same rule, so a page on another origin reads the coded error rather than
 * a CORS failure.
 */
export function corsHeadersBeforeRouting(config: RegistryConfig, request: FastifyRequest): Record<string, string> {
  return isPublishing(request) ? {} : answerHeaders(config)(request.headers.origin);
}

const allowsAny = (config: RegistryConfig): boolean => config.cors.origins.includes('*');

function isPublishing(request: FastifyRequest): boolean {
  if (request.method === 'PUT') return true;
  const asked = request.headers['access-control-request-method'];
  return request.method === 'OPTIONS' && typeof asked === 'string' && asked.toUpperCase() === 'PUT';
}
