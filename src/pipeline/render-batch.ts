import { ExecutionGroup } from '../sandbox/sandbox-pool';
import type { RenderPipeline, RenderRequest, RenderResult } from './render';

export type BatchOutcome = { ok: true; result: RenderResult } | { ok: false; error: unknown };

/**
 * Renders the items of one batch request concurrently, each failing on its own, answered in request
 * order. Their executions travel to the sandbox together (one message each way for the batch).
 */
export function renderBatch(pipeline: RenderPipeline, requests: ReadonlyArray<Omit<RenderRequest, 'group'>>): Promise<BatchOutcome[]> {
  const group = new ExecutionGroup();
  return Promise.all(
    requests.map((request) =>
      pipeline.render({ ...request, group }).then(
        (result): BatchOutcome => ({ ok: true, result }),
        (error: unknown): BatchOutcome => ({ ok: false, error }),
      ),
    ),
  );
}
