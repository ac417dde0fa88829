import { TesseraError } from '../errors/errors';

/**
 * Bounds the executions that start from outside (depth 0) and queues the rest, up to a limit.
 * Nested renders do not pass through it: a parent holding a slot while it waits on its children
 * must never leave those children waiting for a slot, or the pool would deadlock.
 */
export class AdmissionGate {
  readonly #capacity: number;
  readonly #maxQueue: number;
  readonly #waiting: Array<() => void> = [];
  #running = 0;

  constructor(capacity: number, maxQueue: number) {
    this.#capacity = capacity;
    this.#maxQueue = maxQueue;
  }

  /**
   * Takes a slot: answers undefined when one was free, else a promise resolved when a slot is
   * handed over. Throws OVERLOADED when the queue is full. Not async: a free slot, the usual case,
   * costs no promise.
   */
  enter(): Promise<void> | undefined {
    if (this.#running < this.#capacity) {
      this.#running++;
      return undefined;
    }
    if (this.#waiting.length >= this.#maxQueue) throw new TesseraError('OVERLOADED');
    return new Promise<void>((resolve) => this.#waiting.push(resolve));
  }

  /** Hands the slot to the oldest waiting execution, or frees it. */
  leave(): void {
    const next = this.#waiting.shift();
    if (next) next();
    else this.#running--;
  }

  get queued(): number {
    return this.#waiting.length;
  }
}
