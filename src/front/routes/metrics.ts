import type { FastifyInstance } from 'fastify';
import type { RegistryServices } from '../registry-services';

/** `GET /metrics`: the registry's metrics, of all its front threads, in the Prometheus text format (README "Metrics"). */
export function registerMetrics(app: FastifyInstance, services: RegistryServices): void {
  const { metrics } = services;
  app.get('/metrics', async (_request, reply) => reply.type(metrics.registry.contentType).send(await metrics.exposition()));
}
