import { randomUUID } from '../ids/random-uuid';
import type { IncomingMessage } from 'node:http';

/** The header a request id arrives in (from a load balancer) and is answered in. */
export const REQUEST_ID_HEADER = 'x-request-id';

/** What a request id taken from a client may look like: short, printable, safe in a log line. */
const ACCEPTED = /^[A-Za-z0-9._:-]{1,128}$/;

/** fastify's `genReqId`: the incoming `X-Request-Id` when it is sane, else a new UUID. */
export function requestIdOf(request: IncomingMessage): string {
  const given = request.headers[REQUEST_ID_HEADER];
  return typeof given === 'string' && ACCEPTED.test(given) ? given : randomUUID();
}
