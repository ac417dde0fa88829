import { TesseraError } from '../errors/errors';

/** Why a request that waited for a slot as long as it may (the execution time limit) is turned away. */
const WAITED_TOO_LONG = 'The registry is at capacity: no execution slot was free within the execution time limit; retry later.';

/**
 * Bounds the executions running at once: each takes one of `capacity` slots, or queues up to a
 * limit (an execution from outside), or fails at once with OVERLOADED (a nested render: a parent
 * holding a slot while it waits on its children must not leave them waiting behind requests that
 * wait for the parent's slot).
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
   * handed over, or rejected with OVERLOADED when none was within `maxWaitMs` (it then leaves the
   * queue). Throws OVERLOADED when the queue is full. Not async: a free slot, the usual case, costs
   * no promise.
   */
  enter(maxWaitMs: number): Promise<void> | undefined {
    if (this.#running < this.#capacity) {
      this.#running++;
      return undefined;
    }
    if (this.#waiting.length >= this.#maxQueue) throw new TesseraError('OVERLOADED');
    return new Promise<void>((resolve, reject) => {
      const handOver = () => {
        clearTimeout(timer);
        resolve();
      };
      const timer = setTimeout(() => {
        this.#waiting.splice(this.#waiting.indexOf(handOver), 1);
        reject(new TesseraError('OVERLOADED', WAITED_TOO_LONG));
      }, maxWaitMs);
      this.#waiting.push(handOver);
    });
  }

  /** Takes a slot at once, or answers false. */
  tryEnter(): boolean {
    if (this.#running >= this.#capacity) return false;
    this.#running++;
    return true;
  }

  /** Hands the slot to the oldest waiting execution, or frees it. */
  leave(): void {
    const next = this.#running <= this.#capacity ? this.#waiting.shift() : undefined;
    if (next) next();
    else this.#running--;
  }

  get queued(): number {
    return this.#waiting.length;
  }
}
