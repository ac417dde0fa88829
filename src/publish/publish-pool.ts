import type { Piscina } from 'piscina';
import type { StorageSettings } from '../storage/storage-settings';
import { checkTooLong, newCheckState, watchDeadline } from './check-deadline';
import { outcomeOf, type PublishOutcome } from './publish-outcome';
import type { PublishJob, PublishRules } from './publish-package';
import { PublishQueue } from './publish-queue';
import { heapExhausted, publishThreadHeapMb } from './publish-thread-heap';
import { startPublishThreads } from './publish-threads';
import type { PublishTask, PublishThreadData } from './publish-worker';
import { leftWhileWaiting } from './upload-errors';

export interface PublishPoolOptions {
  /** `limits.publishThreads`: publishes running at once; more wait in their tenants' queues. */
  threads: number;
  /** `limits.publishCheckSeconds`: the deadline of a publish's unpacking and checks (check-deadline.ts). */
  checkSeconds: number;
  /** `limits.publishThreadNiceness` (publish-threads.ts). */
  niceness: number;
  /** The registry's storage, which each thread builds again for itself. */
  storage: StorageSettings;
  rules: PublishRules;
  /** A tenant's weight, as in the sandbox's fair share (src/tenants/tenant-weight.ts). */
  weightOf(tenant: string): number;
  /** Told of a publish thread that ended with no task of its own (publish-threads.ts): the operator's to read. */
  onThreadLost(error: Error): void;
}

/**
 * The registry's publish threads (one pool per process, in its main thread, where every front
 * thread's uploads come): everything a publish costs (inflating, parsing the tarball, checking the
 * descriptor and hashes, parsing `server.js` for the dependency policy, hashing and writing to
 * storage) runs there, apart from the front threads' event loops and from the sandbox hosts, so
 * that a large upload never holds up renders.
 *
 * No package holds a thread for long or takes the process's memory: a thread's heap is limited
 * (publish-thread-heap.ts) and its unpacking and checks have a deadline; past either, the thread is
 * ended and the package refused with PACKAGE_TOO_COMPLEX. No tenant holds the threads: at most
 * `threads` publishes are handed to piscina at once, the others wait in this pool's queue, served
 * round-robin by tenant (publish-queue.ts), so another tenant's publish waits for at most one
 * bounded publish per thread, not for every upload one tenant sent. A waiting publish is its job
 * and the path of its upload on disk: its thread reads the file once it starts.
 */
export class PublishPool {
  readonly #options: PublishPoolOptions;
  readonly #heapMb: number;
  readonly #waiting: PublishQueue<() => void>;
  #piscina: Piscina<PublishTask, PublishOutcome> | undefined;
  #running = 0;
  #closed = false;

  constructor(options: PublishPoolOptions) {
    this.#options = options;
    this.#heapMb = publishThreadHeapMb(options.rules.serverScript.bytes);
    this.#waiting = new PublishQueue(options.weightOf);
  }

  /**
   * Publishes the upload received into `file` in a publish thread, after those its turn comes behind;
   * answers how it ended. Once `left` aborts (its client closed the connection) a publish still
   * waiting leaves the queue and never runs; one under way goes on to its end.
   */
  async run(job: PublishJob, file: string, left?: AbortSignal): Promise<PublishOutcome> {
    if (!(await this.#turn(job.tenant, left))) return outcomeOf(leftWhileWaiting());
    try {
      return await this.#runInThread(job, file);
    } finally {
      this.#next();
    }
  }

  /** Publishes handed to the pool and not ended yet: running in a thread or waiting for one. */
  get inProgress(): number {
    return this.#running + this.#waiting.size;
  }

  /** Publishes waiting for a thread. */
  get waiting(): number {
    return this.#waiting.size;
  }

  /** Ends the threads; called once no request is under way. A publish still waiting is turned away, as one running is. */
  async close(): Promise<void> {
    this.#closed = true;
    await this.#piscina?.destroy();
    for (let next = this.#waiting.shift(); next !== undefined; next = this.#waiting.shift()) {
      this.#running += 1;
      next();
    }
  }

  /** Resolves true when a thread is this publish's (at once while one is free), false when its client left first. */
  #turn(tenant: string, left: AbortSignal | undefined): Promise<boolean> {
    if (this.#running < this.#options.threads) {
      this.#running += 1;
      return Promise.resolve(true);
    }
    if (left?.aborted) return Promise.resolve(false);
    return new Promise((resolve) => {
      const leave = (): void => {
        if (this.#waiting.remove(tenant, take)) resolve(false);
      };
      const take = (): void => {
        left?.removeEventListener('abort', leave);
        resolve(true);
      };
      left?.addEventListener('abort', leave, { once: true });
      this.#waiting.push(tenant, take);
    });
  }

  /** A publish ended: its thread goes to the next in the rotation (the count stays), or is free. */
  #next(): void {
    const next = this.#waiting.shift();
    if (next) next();
    else this.#running -= 1;
  }

  async #runInThread(job: PublishJob, file: string): Promise<PublishOutcome> {
    if (this.#closed) throw new Error('The publish pool was closed before this publish had a thread.');
    const checkState = newCheckState();
    const ending = new AbortController();
    // piscina ends a thread whose task's signal aborts (its event loop is busy parsing: nothing else would stop it).
    const stopWatching = watchDeadline(checkState, this.#options.checkSeconds, () => ending.abort());
    try {
      return await this.#threads().run({ job, file, checkState }, { signal: ending.signal });
    } catch (error) {
      if (ending.signal.aborted) return outcomeOf(checkTooLong(this.#options.checkSeconds));
      // Node ends a thread past its heap limit; piscina starts another for the next task.
      if ((error as NodeJS.ErrnoException).code === 'ERR_WORKER_OUT_OF_MEMORY') return outcomeOf(heapExhausted(this.#heapMb));
      throw error;
    } finally {
      stopWatching();
    }
  }

  /** The threads, started on the first publish: a registry that only serves never loads piscina. */
  #threads(): Piscina<PublishTask, PublishOutcome> {
    if (this.#piscina) return this.#piscina;
    const options = this.#options;
    const workerData: PublishThreadData = { storage: options.storage, rules: options.rules, checkSeconds: options.checkSeconds };
    return (this.#piscina = startPublishThreads({ threads: options.threads, heapMb: this.#heapMb, niceness: options.niceness, workerData, onLost: options.onThreadLost }));
  }
}
