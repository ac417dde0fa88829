import type { FastifyInstance } from 'fastify';
import type { RegistryServices } from '../registry-services';

/** `GET /metrics`: the registry's metrics in the Prometheus text format (README "Metrics"). */
export function registerMetrics(app: FastifyInstance, services: RegistryServices): void {
  const { registry } = services.metrics;
  app.get('/metrics', async (_request, reply) => reply.type(registry.contentType).send(await registry.metrics()));
}
