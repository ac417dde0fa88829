import type { FastifyInstance } from 'fastify';
import type { RegistryMetrics } from './registry-metrics';

/** Counts and times every answer by its route pattern (`/:name/:version`), never by the raw URL. */
export function recordHttpMetrics(app: FastifyInstance, metrics: RegistryMetrics): void {
  app.addHook('onResponse', (request, reply, done) => {
    metrics.httpRequest(request.method, request.routeOptions.url ?? 'unmatched', reply.statusCode, reply.elapsedTime / 1000);
    done();
  });
}
