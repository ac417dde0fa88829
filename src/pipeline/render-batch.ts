import type { RenderPipeline, RenderRequest, RenderResult } from './render';

export type BatchOutcome = { ok: true; result: RenderResult } | { ok: false; error: unknown };

/**
 * Renders the items of one batch request concurrently, each failing on its own (each is a request of
 * its own, with its own budget), answered in request order. Their executions reach the sandbox hosts
 * together anyway: the pool sends what one turn of the event loop produced as one message per host.
 */
export function renderBatch(pipeline: RenderPipeline, requests: readonly RenderRequest[]): Promise<BatchOutcome[]> {
  return Promise.all(
    requests.map((request) =>
      pipeline.render(request).then(
        (result): BatchOutcome => ({ ok: true, result }),
        (error: unknown): BatchOutcome => ({ ok: false, error }),
      ),
    ),
  );
}
