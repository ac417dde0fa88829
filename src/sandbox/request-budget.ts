import { TesseraError } from '../errors/errors';

/**
 * What one request from outside may spend across all its nested renders (decisions §11): one
 * deadline, set when its first execution starts, and a cap on executions at every level. When the
 * request is answered the budget closes: executions still running for it are cancelled, and none
 * can start.
 */
export class RequestBudget {
  readonly #timeoutMs: number;
  readonly #maxExecutions: number;
  readonly #running = new Set<() => void>();
  #deadline: number | undefined;
  #executions = 0;
  #closed = false;

  /** The id of the request from outside, under which its nested renders are logged. */
  readonly requestId: string | undefined;

  constructor(timeoutMs: number, maxExecutions: number, requestId?: string) {
    this.#timeoutMs = timeoutMs;
    this.#maxExecutions = maxExecutions;
    this.requestId = requestId;
  }

  /** Counts one more execution and answers the milliseconds it may take; throws when none are left. */
  charge(): number {
    this.assertOpen();
    if (++this.#executions > this.#maxExecutions) {
      throw new TesseraError('REQUEST_BUDGET_EXCEEDED', `A request may run at most ${this.#maxExecutions} executions across its nested renders.`);
    }
    const now = performance.now();
    this.#deadline ??= now + this.#timeoutMs;
    const left = this.#deadline - now;
    if (left <= 0) throw new TesseraError('EXECUTION_TIMEOUT', 'The request passed its execution time limit before this nested render could start.');
    return Math.min(left, this.#timeoutMs);
  }

  /** Throws EXECUTION_CANCELLED once the request was answered. */
  assertOpen(): void {
    if (this.#closed) throw new TesseraError('EXECUTION_CANCELLED');
  }

  /** Registers how to cancel a running execution; answers the call that unregisters it. */
  track(cancel: () => void): () => void {
    this.#running.add(cancel);
    return () => this.#running.delete(cancel);
  }

  /** The request was answered: cancels what still runs for it. */
  close(): void {
    this.#closed = true;
    const running = [...this.#running];
    this.#running.clear();
    for (const cancel of running) cancel();
  }
}
