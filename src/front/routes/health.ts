import type { FastifyInstance, FastifySchema } from 'fastify';
import { TesseraError } from '../../errors/errors';
import { errorReply } from '../error-body';
import { errorResponses } from '../openapi/error-responses';
import type { RegistryServices } from '../registry-services';

const NOT_READY = {
  starting: 'This registry is starting: its sandbox hosts do not answer yet; send the request to another replica.',
  draining: 'This registry is draining: it finishes the requests it holds and stops; send the request to another replica.',
} as const;

const status = (value: string) => ({ type: 'object', required: ['status'], properties: { status: { const: value } } }) as const;

const LIVEZ: FastifySchema = {
  summary: 'Liveness',
  description: 'Answers while the process answers.',
  tags: ['Operations'],
  response: { 200: { description: 'The process answers.', ...status('live') } },
};

const READYZ: FastifySchema = {
  summary: 'Readiness',
  description: 'Whether this replica should get traffic: not while its sandbox hosts do not answer yet, nor while it drains.',
  tags: ['Operations'],
  response: { 200: { description: 'Send it traffic.', ...status('ready') }, ...errorResponses('NOT_READY') },
};

/**
 * `GET /livez` (the process answers) and `GET /readyz` (send it traffic: 200, or 503 NOT_READY
 * while starting or draining), for load balancers and orchestrators.
 */
export function registerHealth(app: FastifyInstance, services: RegistryServices): void {
  app.get('/livez', { schema: LIVEZ }, async (_request, reply) => reply.send({ status: 'live' }));
  app.get('/readyz', { schema: READYZ }, async (_request, reply) => {
    const state = await services.readiness.state();
    if (state === 'ready') return reply.send({ status: 'ready' });
    const { status, body } = errorReply(new TesseraError('NOT_READY', NOT_READY[state]), '', '');
    return reply.code(status).send(body);
  });
}
