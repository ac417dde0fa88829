import { TesseraError } from '../errors/errors';

/** What one request from outside may spend across all its nested renders (decisions §11, §13). */
export interface RequestLimits {
  /** One deadline for the whole request, from its first execution. */
  timeoutMs: number;
  /** Executions at every level, in all. */
  maxExecutions: number;
  /** Execution slots held at once (its root's and its nested renders'). */
  maxSlots: number;
  /** Characters of nested answers pulled through the front, in all. */
  maxNestedChars: number;
}

/** Why a nested answer past a request's bound is refused; a sandbox host refuses a leased child's answer with the same sentence. */
export const nestedCharsRefusal = (maxNestedChars: number): string => `The nested answers of one request may bring at most ${maxNestedChars} characters through the registry.`;

/**
 * What the items of one batch may bring through the front together: each is a request of its own,
 * but one HTTP answer holds them all.
 */
export class BatchAllowance {
  #left: number;
  readonly #max: number;

  constructor(maxChars: number) {
    this.#left = maxChars;
    this.#max = maxChars;
  }

  /** Counts an item's answer; throws once the batch's answers pass their bound. */
  charge(chars: number): void {
    this.#left -= chars;
    if (this.#left < 0) throw new TesseraError('REQUEST_BUDGET_EXCEEDED', `The answers of one batch may bring at most ${this.#max} characters through the registry.`);
  }
}

/**
 * A request's budget: one deadline, set when its first execution starts, caps on executions (in
 * all and at once) and on the bytes its nested answers bring back. When the request is answered the
 * budget closes: executions still running for it are cancelled, and none can start.
 */
export class RequestBudget {
  readonly #limits: RequestLimits;
  /** What cancels each execution running for the request: most run one, kept apart; any more in a set made for them. */
  #runningOne: (() => void) | undefined;
  #runningMore: Set<() => void> | undefined;
  #deadline: number | undefined;
  #executions = 0;
  #slots = 0;
  #nestedChars = 0;
  #closed = false;

  /** The id of the request from outside, under which its nested renders are logged. */
  readonly requestId: string | undefined;
  /**
   * The tenant whose request this is (the root component's): it pays, in its share of the sandbox,
   * for every execution the request causes, so that no tenant's page spends another's share.
   */
  rootTenant: string | undefined;

  /** The request's `traceparent` header, as sent; and its trace id, once a tail needed it (src/tail/trace-id.ts). */
  traceparent: string | string[] | undefined;
  traceId: string | undefined;

  readonly #batch: BatchAllowance | undefined;

  /** `batch`: the allowance of the batch this request is an item of. */
  constructor(limits: RequestLimits, requestId?: string, batch?: BatchAllowance) {
    this.#limits = limits;
    this.requestId = requestId;
    this.#batch = batch;
  }

  /** Counts one more execution and answers the milliseconds it may take; throws, counting nothing, when none are left. */
  charge(): number {
    this.assertOpen();
    if (this.#executions >= this.#limits.maxExecutions) {
      throw new TesseraError('REQUEST_BUDGET_EXCEEDED', `A request may run at most ${this.#limits.maxExecutions} executions across its nested renders.`);
    }
    const now = performance.now();
    this.#deadline ??= now + this.#limits.timeoutMs;
    const left = this.#deadline - now;
    if (left <= 0) throw new TesseraError('EXECUTION_TIMEOUT', 'The request passed its execution time limit before this nested render could start.');
    this.#executions++;
    return Math.min(left, this.#limits.timeoutMs);
  }

  /** Gives back an execution counted by `charge` that never ran (a nested render leased ahead and not asked for). */
  refundExecution(): void {
    this.#executions--;
  }

  /** Characters nested answers may still bring through the front. */
  get nestedCharsLeft(): number {
    return Math.max(0, this.#limits.maxNestedChars - this.#nestedChars);
  }

  /** Characters nested answers may bring through the front in all. */
  get nestedCharsBound(): number {
    return this.#limits.maxNestedChars;
  }

  /** Holds one more execution slot, or throws when the request holds as many as it may at once. */
  takeSlot(): void {
    if (this.#slots >= this.#limits.maxSlots) {
      throw new TesseraError('REQUEST_BUDGET_EXCEEDED', `A request may hold at most ${this.#limits.maxSlots} execution slots at a time across its nested renders.`);
    }
    this.#slots++;
  }

  releaseSlot(): void {
    this.#slots--;
  }

  /**
   * Counts the characters of an answer that came through the front: a nested one against the
   * request's bound, any against its batch's; throws once one is passed.
   */
  chargeAnswer(chars: number, nested: boolean): void {
    this.#batch?.charge(chars);
    if (!nested) return;
    this.#nestedChars += chars;
    if (this.#nestedChars > this.#limits.maxNestedChars) {
      throw new TesseraError('REQUEST_BUDGET_EXCEEDED', nestedCharsRefusal(this.#limits.maxNestedChars));
    }
  }

  /**
   * Counts the characters of the answers a host brought its parent under a lease: the host held them
   * within what the request had left when the lease was granted, so they are counted, never refused.
   */
  countLeased(chars: number): void {
    this.#nestedChars += chars;
    try {
      this.#batch?.charge(chars);
    } catch {
      // The batch's later answers are refused: it holds these already.
    }
  }

  /** Throws EXECUTION_CANCELLED once the request was answered. */
  assertOpen(): void {
    if (this.#closed) throw new TesseraError('EXECUTION_CANCELLED');
  }

  /** Registers how to cancel a running execution; answers the call that unregisters it. */
  track(cancel: () => void): () => void {
    if (this.#runningOne === undefined) {
      this.#runningOne = cancel;
      return () => {
        if (this.#runningOne === cancel) this.#runningOne = undefined;
      };
    }
    const more = (this.#runningMore ??= new Set());
    more.add(cancel);
    return () => more.delete(cancel);
  }

  /** The request was answered: cancels what still runs for it. */
  close(): void {
    this.#closed = true;
    const one = this.#runningOne;
    const more = this.#runningMore;
    this.#runningOne = undefined;
    this.#runningMore = undefined;
    one?.();
    if (more) for (const cancel of more) cancel();
  }
}
