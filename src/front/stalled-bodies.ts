import type { FastifyInstance } from 'fastify';
import { TesseraError } from '../errors/errors';
import { errorReply } from './error-body';

/** Methods whose bodies the routes read; another method's body is discarded after its answer. */
const WITH_BODY = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

/**
 * A request body from which nothing arrives for `idleMs` is answered `408 REQUEST_TIMEOUT`, and its
 * connection closed (decisions §15): a client that sends half an upload and waits holds no upload
 * slot and no connection for longer than that, however long it would like to. The timer counts
 * silence, not time: each chunk that arrives starts it again, so a slow but steady upload goes on.
 * It stops once the body is complete: what the route then does (a publish thread checking the
 * package) is not the client's silence. Headers are bounded apart, by the server's `headersTimeout`.
 */
export function answerStalledBodies(app: FastifyInstance, idleMs: number, development: boolean): void {
  app.addHook('onRequest', (request, reply, done) => {
    const raw = request.raw;
    const expectsBody = raw.headers['transfer-encoding'] !== undefined || (raw.headers['content-length'] !== undefined && raw.headers['content-length'] !== '0');
    if (raw.complete || !expectsBody || !WITH_BODY.has(raw.method ?? '')) return done();
    const stop = (): void => {
      raw.off('timeout', onIdle);
      // Set on the socket, which the next request on a kept-alive connection reuses.
      raw.socket?.setTimeout(0);
    };
    const onIdle = (): void => {
      stop();
      if (raw.complete) return;
      if (reply.sent) {
        raw.socket?.destroy();
        return;
      }
      const error = new TesseraError('REQUEST_TIMEOUT', `Nothing of the request body arrived for ${idleMs} ms (limits.requestBodyIdleMs): the request was given up.`);
      const params = (request.params ?? {}) as { name?: string; version?: string };
      const { status, body } = errorReply(error, params.name ?? '', params.version ?? '', development);
      // Closed once answered: the body's reader then fails, and what it held (an upload slot) goes back.
      void reply.code(status).header('connection', 'close').send(body);
    };
    // On the request, not the socket: the server's own handler would destroy the socket before the answer.
    raw.setTimeout(idleMs, onIdle);
    raw.once('end', stop);
    raw.once('close', stop);
    done();
  });
}
