import type { FastifyInstance } from 'fastify';
import { TesseraError } from '../errors/errors';
import { errorReply } from './error-body';

/** How often a body's progress is looked at, in parts of the idle time: silence is seen within 1¼ of it. */
const LOOKS_PER_IDLE = 4;

/**
 * A request body from which nothing arrives for `idleMs` while the registry reads it is answered
 * `408 REQUEST_TIMEOUT`, and its connection closed (decisions §15): a client that sends half an upload
 * and waits holds no upload slot and no connection for longer than that, however long it would like
 * to. Silence is counted, not time: each byte that arrives starts it again, so a slow but steady
 * upload goes on; and only while the body is being read: one waiting for its tenant's upload slot, or
 * paused while the disk catches up, is held back by the registry, not silent. Once the body is
 * complete, nothing is counted. Headers are bounded apart, by the server's `headersTimeout`.
 *
 * A body answered before it was read (a route that takes none, a refused token, a content type no
 * route parses) is bounded the same way: once the answer is out, Node reads such a body to its end to
 * go on with the connection, with no time limit of its own, and nothing holds it back any more; silent
 * for `idleMs`, its connection is closed (there is nothing left to answer), whatever the method.
 *
 * Progress is read from the socket's byte count on a timer, not from the socket's own idle timeout:
 * Node ends a socket whose idle timeout passes once its request is complete, however long the route
 * still works on it (a publish thread checking the package).
 */
export function answerStalledBodies(app: FastifyInstance, idleMs: number, development: boolean): void {
  const every = Math.max(25, Math.floor(idleMs / LOOKS_PER_IDLE));
  app.addHook('onRequest', (request, reply, done) => {
    const raw = request.raw;
    const socket = raw.socket;
    const expectsBody = raw.headers['transfer-encoding'] !== undefined || (raw.headers['content-length'] !== undefined && raw.headers['content-length'] !== '0');
    if (raw.complete || !expectsBody || !socket) return done();
    let bytes = socket.bytesRead;
    let silentSince = Date.now();
    let timer: NodeJS.Timeout;
    const look = (): void => {
      if (raw.complete || raw.destroyed || socket.destroyed) return;
      const now = Date.now();
      // Once answered, nothing of the registry holds the body back: silence is the client's.
      if (socket.bytesRead !== bytes || (!reply.sent && raw.readableFlowing !== true)) {
        bytes = socket.bytesRead;
        silentSince = now;
      } else if (now - silentSince >= idleMs) {
        if (reply.sent) closeAfterAnswer();
        else giveUp();
        return;
      }
      timer = setTimeout(look, every).unref();
    };
    const giveUp = (): void => {
      const error = new TesseraError('REQUEST_TIMEOUT', `Nothing of the request body arrived for ${idleMs} ms (limits.requestBodyIdleMs): the request was given up.`);
      const params = (request.params ?? {}) as { name?: string; version?: string };
      const { status, body } = errorReply(error, params.name ?? '', params.version ?? '', development);
      // Once answered, the body is ended: Node forgets a request whose answer is out (a closed connection
      // would not abort it), and its reader must fail to give back what it held (an upload slot).
      reply.raw.once('finish', () => raw.destroy());
      void reply.code(status).header('connection', 'close').send(body);
    };
    const closeAfterAnswer = (): void => {
      if (reply.raw.writableFinished) socket.destroy();
      else reply.raw.once('finish', () => socket.destroy());
    };
    timer = setTimeout(look, every).unref();
    // A timer left to its end would hold the request and its answer for up to a quarter of the idle
    // time after both were done: 2.5 s of every batch request at the default, tens of megabytes of a
    // front thread's heap under load.
    const stop = (): void => clearTimeout(timer);
    raw.once('end', stop);
    raw.once('close', stop);
    done();
  });
}
