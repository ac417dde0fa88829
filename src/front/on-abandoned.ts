import type { FastifyReply } from 'fastify';

/**
 * Cancels what is registered when the client goes away before its answer is written (a page
 * navigated away, a caller gave up): the render pipeline then stops the request's executions,
 * running or still queued, instead of spending a slot on an answer nobody reads. One listener per
 * response, however many batch items register (no AbortController: this is on every request's path).
 */
export function onAbandoned(reply: FastifyReply): (cancel: () => void) => void {
  let cancels: Array<() => void> | undefined;
  return (cancel) => {
    if (cancels === undefined) {
      const registered: Array<() => void> = (cancels = []);
      reply.raw.once('close', () => {
        if (!reply.raw.writableFinished) for (const registeredCancel of registered) registeredCancel();
      });
    }
    cancels.push(cancel);
  };
}
