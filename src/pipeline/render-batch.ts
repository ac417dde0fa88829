import { BatchAllowance } from '../sandbox/request-budget';
import { BatchInputParts } from './execution-input';
import type { RenderPipeline, RenderRequest, RenderResult } from './render';

export type BatchOutcome = { ok: true; result: RenderResult } | { ok: false; error: unknown };

/**
 * Renders the items of one batch request concurrently, each failing on its own (each is a request of
 * its own, with its own budget), answered in request order; their answers together bring at most
 * `maxChars` through the front (past it, the next items fail REQUEST_BUDGET_EXCEEDED). Their
 * executions reach the sandbox hosts together anyway: the pool sends what one turn of the event loop
 * produced as one message per host.
 */
export function renderBatch(pipeline: RenderPipeline, requests: readonly RenderRequest[], maxChars: number): Promise<BatchOutcome[]> {
  const batch = new BatchAllowance(maxChars);
  // The items share the batch's headers: what their inputs take from them is written once (execution-input.ts).
  const inputParts = new BatchInputParts();
  return Promise.all(
    requests.map((request) =>
      pipeline.render({ ...request, batch, inputParts }).then(
        (result): BatchOutcome => ({ ok: true, result }),
        (error: unknown): BatchOutcome => ({ ok: false, error }),
      ),
    ),
  );
}
