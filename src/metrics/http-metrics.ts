import type { FastifyInstance, onSendHookHandler } from 'fastify';
import type { RegistryMetrics } from './registry-metrics';

/**
 * Counts and times every answer by its route pattern (`/:name/:version`), never by the raw URL.
 * Recorded when the answer is sent: each route gets a hook of its own that knows its pattern (read
 * once, when the route is added; `request.routeOptions` builds an object on every read), and
 * answers no route matched are counted as `unmatched`.
 */
export function recordHttpMetrics(app: FastifyInstance, metrics: RegistryMetrics): void {
  app.addHook('onRoute', (route) => {
    const recordAnswer = metrics.httpRoute(route.url);
    const record: onSendHookHandler = (request, reply, payload, done) => {
      recordAnswer(request.method, reply.statusCode, reply.elapsedTime / 1000);
      done(null, payload);
    };
    route.onSend = route.onSend === undefined ? record : [...(Array.isArray(route.onSend) ? route.onSend : [route.onSend]), record];
  });
  const recordUnmatched = metrics.httpRoute('unmatched');
  app.addHook('onSend', (request, reply, payload, done) => {
    if (request.is404) recordUnmatched(request.method, reply.statusCode, reply.elapsedTime / 1000);
    done(null, payload);
  });
}
