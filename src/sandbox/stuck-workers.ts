import type { Worker } from 'node:worker_threads';

/** How often the front looks at the workers' threads. */
const CHECK_EVERY_MS = 250;
/** Margin past the time limit before a thread held by one call counts as lost. */
const GRACE_MS = 2000;

interface Watched {
  /** Shared with the worker: [synchronous calls started, 1 while one runs] (see workers/fast-path.ts). */
  use: Int32Array;
  /** The call count when the current call was first seen running, and when. */
  call: number;
  since: number;
}

/**
 * Finds workers whose thread is held by one synchronous execution far past the time limit. The
 * isolate's own timeout ends any such execution at the limit, so a thread still held after it is
 * lost: V8 parks a thread that runs out of memory beyond any limit, for good. `onStuck` is told
 * once per such worker.
 */
export class StuckWorkers {
  readonly #watched = new Map<number, Watched>();
  readonly #timer: NodeJS.Timeout;

  constructor(timeoutMs: number, threads: () => readonly Worker[], onStuck: (worker: Worker) => void) {
    const lostAfterMs = timeoutMs + GRACE_MS;
    this.#timer = setInterval(() => {
      const now = performance.now();
      for (const [threadId, watched] of this.#watched) {
        const call = Atomics.load(watched.use, 0);
        if (Atomics.load(watched.use, 1) === 0 || call !== watched.call) {
          watched.call = call;
          watched.since = now;
        } else if (now - watched.since > lostAfterMs) {
          this.#watched.delete(threadId);
          const worker = threads().find((candidate) => candidate.threadId === threadId);
          if (worker) onStuck(worker);
        }
      }
    }, CHECK_EVERY_MS).unref();
  }

  watch(threadId: number, use: Int32Array): void {
    this.#watched.set(threadId, { use, call: Atomics.load(use, 0), since: performance.now() });
  }

  /** Synchronous executions started, summed over the watched workers. */
  callsStarted(): number {
    let calls = 0;
    for (const { use } of this.#watched.values()) calls += Atomics.load(use, 0);
    return calls;
  }

  forget(threadId: number): void {
    this.#watched.delete(threadId);
  }

  stop(): void {
    clearInterval(this.#timer);
  }
}
