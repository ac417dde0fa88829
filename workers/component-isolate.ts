import ivm from 'isolated-vm';
import { hardenIntrinsics } from './harden-intrinsics';
import { onThisThread, type FastPath } from './fast-path';
import { installPrelude } from './isolate-prelude';
import type { ComponentCode, SandboxLimits } from '../src/sandbox/protocol';

/**
 * Called from inside the isolate for nested renders and plugins: (execution id, operation, JSON
 * payload) → JSON answer; a synchronous call passes a shared flag instead (see workers/sandbox-worker.ts).
 */
export type BridgeFunction = (execId: number, op: string, payloadJson: string, signal?: SharedArrayBuffer) => Promise<string> | string | undefined;

type DisposeReason = 'timeout' | 'memory' | 'evicted';

interface EntryPoints {
  run: ivm.Reference;
  start: ivm.Reference;
  take: ivm.Reference;
  wait: ivm.Reference;
}

const failure = (code: string, message: string): string => JSON.stringify({ ok: false, code, message });
const TIMEOUT_FAILURE = failure('EXECUTION_TIMEOUT', 'The component passed its execution time limit.');
const MEMORY_FAILURE = failure('MEMORY_LIMIT_EXCEEDED', 'The component passed its sandbox memory limit; its sandbox was discarded.');

const asyncCall = (timeoutMs: number) =>
  ({ arguments: { copy: true }, result: { promise: true, copy: true }, timeout: bounded(Math.max(1, Math.ceil(timeoutMs))) }) as const;

/** How long a heap reading waits for a busy isolate before the previous reading stands in. */
const HEAP_READING_WAIT_MS = 50;

/**
 * The longest delay Node timers and isolated-vm timeouts accept (about 24.8 days); a configured
 * limit beyond it (a benchmark lifting the limits) means "no limit" and is held at this.
 */
const LONGEST_MS = 2 ** 31 - 1;
const bounded = (ms: number): number => Math.min(ms, LONGEST_MS);

/**
 * The executions (and the build) waiting on one isolate, so that each can be answered at once if V8
 * loses control of it. A set of resolvers rather than one shared promise: a race against a promise
 * that never settles would keep one reaction per execution alive for the isolate's whole life.
 */
class Waiters {
  readonly #waiting = new Set<(answer: string) => void>();
  #lost = false;

  /** Races `work` against the loss of the isolate. */
  async race(work: Promise<string | ComponentIsolate>): Promise<string | ComponentIsolate> {
    if (this.#lost) return MEMORY_FAILURE;
    let resolver: ((answer: string) => void) | undefined;
    const lost = new Promise<string>((resolve) => {
      resolver = resolve;
      this.#waiting.add(resolve);
    });
    try {
      return await Promise.race([work, lost]);
    } finally {
      this.#waiting.delete(resolver!);
    }
  }

  /** Answers every waiter with the memory failure; true only the first time. */
  lose(): boolean {
    if (this.#lost) return false;
    this.#lost = true;
    for (const resolve of this.#waiting) resolve(MEMORY_FAILURE);
    return true;
  }
}

/** Resolves `fallback()` after `ms` unless `promise` settles first; the timer never outlives the race. */
async function within<T>(promise: Promise<T>, ms: number, fallback: () => T): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<T>((resolve) => {
    timer = setTimeout(() => resolve(fallback()), bounded(ms));
  });
  try {
    return await Promise.race([promise, late]);
  } finally {
    clearTimeout(timer);
  }
}

/**
 * One component version's warm isolate: its template and server bundle compiled once, then run
 * for every execution. A breached limit disposes the whole isolate; the next request builds anew.
 * Every answer is bounded by the wall clock, whatever the isolate does.
 */
export class ComponentIsolate {
  readonly #isolate: ivm.Isolate;
  readonly #entries: EntryPoints;
  readonly #waiters: Waiters;
  readonly #fastPath: FastPath;
  #disposeReason: DisposeReason | undefined;
  #inflight = 0;
  #evicted = false;
  #heapBytes = 0;

  private constructor(isolate: ivm.Isolate, entries: EntryPoints, waiters: Waiters, fastPath: FastPath) {
    this.#isolate = isolate;
    this.#entries = entries;
    this.#waiters = waiters;
    this.#fastPath = fastPath;
  }

  /**
   * Builds the isolate within the time limit; on a failing component it answers the failure as
   * JSON instead. `onLost` is told when V8 loses control of the isolate: a single allocation too
   * large for any heap (`new Array(1e8).fill(0)`) fails inside V8 before the memory limit can stop
   * it. Without `onCatastrophicError` that aborts the whole process; with it, isolated-vm parks the
   * isolate's thread for good and the executions in it are answered MEMORY_LIMIT_EXCEEDED here.
   */
  static async create(
    code: ComponentCode,
    limits: SandboxLimits,
    bridge: BridgeFunction,
    onLost: () => void,
    fastPath: FastPath,
  ): Promise<ComponentIsolate | string> {
    const waiters = new Waiters();
    const isolate = new ivm.Isolate({
      memoryLimit: limits.memoryMb,
      onCatastrophicError: () => {
        if (!waiters.lose()) return;
        isolate.dispose();
        onLost();
      },
    });
    const build = async (): Promise<ComponentIsolate | string> => {
      const context = await isolate.createContext();
      await context.evalClosure(
        `(${installPrelude.toString()})(globalThis, $0, ${limits.maxResultChars}); (${hardenIntrinsics.toString()})(globalThis);`,
        [bridge],
        { arguments: { reference: true } },
      );
      const entries: EntryPoints = {
        run: (await context.global.get('__tesseraRun', { reference: true })) as ivm.Reference,
        start: (await context.global.get('__tesseraStart', { reference: true })) as ivm.Reference,
        take: (await context.global.get('__tesseraTake', { reference: true })) as ivm.Reference,
        wait: (await context.global.get('__tesseraWait', { reference: true })) as ivm.Reference,
      };
      for (const name of ['__tesseraRun', '__tesseraStart', '__tesseraTake', '__tesseraWait', '__tesseraDescribe']) await context.global.delete(name);

      const template = await isolate.compileScript(
        `__tesseraDefineTemplate((function(){var oc;${code.template}\n;return oc.components;})(), ${JSON.stringify(code.templateKey)});`,
      );
      await template.run(context, { timeout: bounded(limits.timeoutMs) });
      if (code.server !== undefined) {
        const server = await isolate.compileScript(`__tesseraDefineServer(function(module, exports, require){${code.server}\n});`);
        const loaded = (await server.run(context, { timeout: bounded(limits.timeoutMs) })) as string;
        if (!JSON.parse(loaded).ok) return loaded;
      }
      return new ComponentIsolate(isolate, entries, waiters, fastPath);
    };
    const built = build().catch((error: unknown) => classify(error, isolate.isDisposed ? 'memory' : undefined));
    const answer = await within(waiters.race(built), limits.timeoutMs, (): string => TIMEOUT_FAILURE);
    if (typeof answer === 'string' && !isolate.isDisposed) isolate.dispose();
    return answer;
  }

  get disposed(): boolean {
    return this.#isolate.isDisposed;
  }

  /**
   * Runs one execution; always answers JSON (`{ok: true, …}` or a coded failure), at the latest
   * when the time limit passes: the wall clock also stops never-settling promises and loops that
   * run after an `await`, which the isolate's own CPU timeout does not see. Once the isolate has
   * earned the fast path (workers/fast-path.ts) the execution starts on this thread.
   */
  async execute(inputJson: string, execId: number, timeoutMs: number): Promise<string> {
    this.#inflight++;
    const started = performance.now();
    try {
      let answer: string;
      if (this.#fastPath.open) {
        const settled = this.#startOnThisThread(inputJson, execId, timeoutMs);
        const held = performance.now() - started;
        this.#fastPath.held(held);
        answer = settled ?? (await this.#settle(this.#entries.wait.apply(undefined, [execId], asyncCall(timeoutMs - held)), timeoutMs - held));
      } else {
        answer = await this.#settle(this.#entries.run.apply(undefined, [inputJson, execId], asyncCall(timeoutMs)), timeoutMs);
        this.#fastPath.answered(performance.now() - started);
      }
      if (answer === TIMEOUT_FAILURE || answer === MEMORY_FAILURE) this.#fastPath.breached();
      return answer;
    } finally {
      if (--this.#inflight === 0 && this.#evicted) this.dispose('evicted');
    }
  }

  /**
   * Starts an execution synchronously and answers its result if it settled within the call
   * (isolated-vm runs the isolate's microtasks before the call returns, under the same time limit),
   * or undefined while it awaits something from outside, such as a nested render.
   */
  #startOnThisThread(inputJson: string, execId: number, timeoutMs: number): string | undefined {
    try {
      return onThisThread(() => {
        this.#entries.start.applySync(undefined, [inputJson, execId], { arguments: { copy: true }, timeout: bounded(timeoutMs) });
        return this.#entries.take.applySync(undefined, [execId], { result: { copy: true } }) as string | undefined;
      });
    } catch (error) {
      // Tenant errors are answers, caught inside the isolate: a throw here is a breached limit.
      const answer = classify(error, this.#isolate.isDisposed ? 'memory' : undefined);
      this.dispose(answer === TIMEOUT_FAILURE ? 'timeout' : 'memory');
      return answer;
    }
  }

  /** Waits for an asynchronous execution, bounded by the wall clock and by the loss of the isolate. */
  async #settle(running: Promise<unknown>, timeoutMs: number): Promise<string> {
    const answer = running.then(
      (json) => json as string,
      (error: unknown) => classify(error, this.#disposeReason ?? (this.#isolate.isDisposed ? 'memory' : undefined)),
    );
    return (await within(this.#waiters.race(answer), timeoutMs, () => {
      this.dispose('timeout');
      return TIMEOUT_FAILURE;
    })) as string;
  }

  /** Called when the worker drops this isolate from its warm set; running executions finish first. */
  disposeWhenIdle(): void {
    this.#evicted = true;
    if (this.#inflight === 0) this.dispose('evicted');
  }

  /** Heap bytes in use (external allocations included), without waiting long on a busy isolate. */
  async heapBytes(): Promise<number> {
    if (this.#isolate.isDisposed) return 0;
    const reading = this.#isolate.getHeapStatistics().then(
      (heap) => (this.#heapBytes = heap.used_heap_size + heap.externally_allocated_size),
      () => 0,
    );
    return within(reading, HEAP_READING_WAIT_MS, () => this.#heapBytes);
  }

  dispose(reason: DisposeReason = 'evicted'): void {
    if (this.#isolate.isDisposed) return;
    this.#disposeReason ??= reason;
    this.#isolate.dispose();
  }
}

function classify(error: unknown, disposeReason: DisposeReason | undefined): string {
  const message = error instanceof Error ? error.message : String(error);
  if (disposeReason === 'timeout' || /execution timed out/i.test(message)) return TIMEOUT_FAILURE;
  if (disposeReason === 'memory' || /memory limit/i.test(message)) return MEMORY_FAILURE;
  if (disposeReason === 'evicted') return failure('SANDBOX_CRASHED', 'The sandbox running the component was recycled during the execution.');
  return failure('GENERIC_ERROR', `The component failed: ${message}`);
}
