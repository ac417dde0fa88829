import type { FastifyReply } from 'fastify';

/**
 * Cancels what is registered when the client goes away before its answer is written (a page
 * navigated away, a caller gave up): the render pipeline then stops the request's executions,
 * running or still queued, instead of spending a slot on an answer nobody reads. One listener per
 * response, however many batch items register. Not fastify's `onRequestAbort` hook: it looks at the
 * request's own `close`, which a GET has already passed when its handler runs.
 */
export function onAbandoned(reply: FastifyReply): (cancel: () => void) => void {
  const cancels: Array<() => void> = [];
  // `on`, not `once`: a response closes once, and `once` wraps each listener in two objects more.
  reply.raw.on('close', () => {
    if (!reply.raw.writableFinished) for (const cancel of cancels) cancel();
  });
  return (cancel) => void cancels.push(cancel);
}
