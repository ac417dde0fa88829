import type { FastifyInstance } from 'fastify';
import type { RegistryServices } from '../registry-services';

const SCHEMA = {
  summary: 'Prometheus metrics',
  description: "The registry's metrics, summed over its front threads. A component named `metrics` is reached with a version (`/metrics/1.x`).",
  tags: ['Operations'],
  response: { 200: { description: 'The Prometheus text format.', content: { 'text/plain': { schema: { type: 'string' } } } } },
} as const;

/** `GET /metrics`: the registry's metrics, of all its front threads, in the Prometheus text format (docs/reference/metrics.md). */
export function registerMetrics(app: FastifyInstance, services: RegistryServices): void {
  const { metrics } = services;
  app.get('/metrics', { schema: SCHEMA }, async (_request, reply) => reply.type(metrics.registry.contentType).send(await metrics.exposition()));
}
