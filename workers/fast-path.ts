/**
 * The fast path: a warm isolate's execution starts synchronously on the worker's own thread.
 * isolated-vm's asynchronous calls run on its thread pool, so each execution otherwise costs two
 * thread wake-ups (to an isolate thread and back), and on a small machine those cost more than a
 * typical execution itself.
 *
 * A synchronous execution holds the worker's thread for as long as it runs, so a version earns
 * the fast path and can lose it:
 * - each new isolate first answers PROBATION executions on isolated-vm's threads, each within
 *   SLOW_MS; until then a component that spins, or blows up V8, does it where it always did;
 * - a version declaring plugins never takes it: a plugin call sleeps the isolate's thread until
 *   the front answers through this very worker;
 * - a version that passes its time or memory limit, or holds the thread longer than SLOW_MS, loses
 *   it on this worker for good.
 * So a version can hold a worker at most once per worker, for at most one time limit. A worker
 * that stops answering altogether is replaced by the front (src/sandbox/sandbox-pool.ts).
 */

/** Quick executions a new isolate answers asynchronously before it runs on the worker's thread. */
const PROBATION = 5;
/** Longer than this, an execution is not quick, and a synchronous start is too slow to keep. */
const SLOW_MS = 20;

/**
 * This thread's use by synchronous executions, shared with the front: [calls started, 1 while one
 * runs]. The front gives up a worker whose thread stays in one call far past the time limit.
 */
export const threadUse = new Int32Array(new SharedArrayBuffer(8));

/** Runs `call` synchronously on this thread, marked in `threadUse`. */
export function onThisThread<T>(call: () => T): T {
  Atomics.add(threadUse, 0, 1);
  Atomics.store(threadUse, 1, 1);
  try {
    return call();
  } finally {
    Atomics.store(threadUse, 1, 0);
  }
}

/** The versions of this worker that lost the fast path. */
const slowVersions = new Set<string>();

/** One isolate's standing: how many quick answers it still owes, or closed for good. */
export class FastPath {
  readonly #key: string;
  #owed: number;

  constructor(key: string, declaresPlugins: boolean) {
    this.#key = key;
    this.#owed = declaresPlugins || slowVersions.has(key) ? Number.POSITIVE_INFINITY : PROBATION;
  }

  get open(): boolean {
    return this.#owed === 0;
  }

  /** An asynchronous execution answered after `ms`. */
  answered(ms: number): void {
    if (ms <= SLOW_MS && this.#owed > 0) this.#owed--;
  }

  /** A synchronous start held the thread for `ms`. */
  held(ms: number): void {
    if (ms > SLOW_MS) this.breached();
  }

  /** The execution passed its time or memory limit. */
  breached(): void {
    this.#owed = Number.POSITIVE_INFINITY;
    slowVersions.add(this.#key);
  }
}
