import ivm from 'isolated-vm';
import { hardenIntrinsics } from './harden-intrinsics';
import { installPrelude, type PreludeLimits } from './isolate-prelude';
import { MAX_BRIDGE_PAYLOAD_CHARS, type BridgeOp, type ComponentCode, type SandboxLimits } from '../src/sandbox/protocol';

/** Sends a bridge call of one of this isolate's live executions to the front; answers its JSON. */
export type BridgeForwarder = (execution: number, op: BridgeOp, payload: string) => Promise<string>;

type DisposeReason = 'timeout' | 'memory' | 'evicted' | 'cancelled' | 'ran-while-idle';

const failure = (code: string, message: string): string => JSON.stringify({ ok: false, code, message });
const TIMEOUT_FAILURE = failure('EXECUTION_TIMEOUT', 'The component passed its execution time limit.');
const MEMORY_FAILURE = failure('MEMORY_LIMIT_EXCEEDED', 'The component passed its sandbox memory limit; its sandbox was discarded.');
const RECYCLED_FAILURE = failure('SANDBOX_CRASHED', 'The sandbox running the component was recycled during the execution.');
/** What a bridge call of an execution that has ended gets: the prelude then never resumes the caller. */
const ENDED = '{"ok":false,"ended":true}';
/** Memory failures the prelude reports (an ArrayBuffer refused, a result too large, too many Intl objects) start so. */
const MEMORY_ANSWER_PREFIX = '{"ok":false,"code":"MEMORY_LIMIT_EXCEEDED"';
/** The prelude asks for a fresh isolate (it holds too much outside its heap) by ending its answer so. */
const RECYCLE_SUFFIX = ',"recycle":true}';

const preludeLimits = (limits: SandboxLimits): PreludeLimits => ({
  maxResultChars: limits.maxResultChars,
  maxPayloadChars: MAX_BRIDGE_PAYLOAD_CHARS,
  maxNestedBatch: limits.maxNestedBatch,
});

/** The answer of an execution that was cancelled: the host sends nothing for it. */
export const CANCELLED = 'cancelled';

/** How long an execution may run without awaiting before its isolate counts as known busy. */
const BUSY_AFTER_MS = 100;
/** How long a disposed isolate's running script has to stop before the isolate counts as lost. */
const STOP_WAIT_MS = 1000;
/** How long a cancelled execution that is still running gets to finish before its isolate goes. */
const CANCEL_GRACE_MS = 50;
/** CPU time an isolate may spend between two idle checks without any execution in it (GC and settling). */
const IDLE_CPU_NS = 20_000_000n;
/** How long a heap reading waits for a busy isolate before the previous reading stands in. */
const HEAP_READING_WAIT_MS = 50;
/**
 * The longest delay Node timers and isolated-vm timeouts accept (about 24.8 days); a configured
 * limit beyond it (a benchmark lifting the limits) means "no limit" and is held at this.
 */
const LONGEST_MS = 2 ** 31 - 1;
const bounded = (ms: number): number => Math.min(Math.max(1, Math.ceil(ms)), LONGEST_MS);

const asyncCall = (timeoutMs: number) => ({ arguments: { copy: true }, result: { promise: true, copy: true }, timeout: bounded(timeoutMs) }) as const;

/** One execution in the isolate, from its start until it answers, passes its limit or is cancelled. */
interface Execution {
  /** Resolvers of its bridge calls still waiting on the front; answered ENDED when it ends. */
  readonly calls: Set<(answer: string) => void>;
  readonly timer: NodeJS.Timeout;
  readonly finish: (answer: string) => void;
  cancelled: boolean;
  /** The isolate has not settled the call that runs it. */
  running: boolean;
  /** Since when it has had code to run (its start, or its last bridge answer), while it awaits nothing. */
  runnableSince: number;
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
 * One component version's warm isolate: its template and server bundle compiled once, then run for
 * every execution. Ownership is explicit: the isolate knows its live executions, and
 * - only a live execution's bridge calls reach the front, and only for plugins the version declares;
 * - an execution that ended (answered, timed out, cancelled) gets no bridge answer that would resume
 *   it, so none of its code runs after its answer;
 * - an isolate that spends CPU time with no live execution is disposed (`checkIdle`).
 * Every execution enters through isolated-vm's asynchronous API, so the host's own thread never
 * waits on tenant code and its timers (the wall-clock limits) always fire. A breached limit disposes
 * the whole isolate; the next request builds anew.
 */
export class ComponentIsolate {
  readonly #isolate: ivm.Isolate;
  readonly #code: ComponentCode;
  readonly #forward: BridgeForwarder;
  readonly #executions = new Map<number, Execution>();
  /** Answers of synchronous bridge calls (plugins), kept until the sleeping execution fetches them. */
  readonly #syncAnswers = new Map<number, string>();
  #run: ivm.Reference | undefined;
  #disposeReason: DisposeReason | undefined;
  #lost = false;
  #onLost: () => void = () => {};
  #retiring = false;
  #idleCpu: bigint | undefined;
  #heapBytes = 0;

  private constructor(code: ComponentCode, limits: SandboxLimits, forward: BridgeForwarder) {
    this.#code = code;
    this.#forward = forward;
    this.#isolate = new ivm.Isolate({
      memoryLimit: limits.memoryMb,
      // A single allocation too large for any heap (`new Array(1e8).fill(0)`) fails inside V8 before
      // the memory limit can stop it. isolated-vm then parks the isolate's thread for good; its
      // executions are answered here, and the host process must be recycled to get the memory back.
      onCatastrophicError: () => this.#lose(),
    });
  }

  /**
   * Builds the isolate within the time limit; on a failing component it answers the failure as
   * JSON instead. `onLost` is told when V8 loses control of the isolate.
   */
  static async create(code: ComponentCode, limits: SandboxLimits, forward: BridgeForwarder, onLost: () => void): Promise<ComponentIsolate | string> {
    const component = new ComponentIsolate(code, limits, forward);
    let lost: (answer: string) => void = () => {};
    component.#onLost = () => {
      lost(MEMORY_FAILURE);
      onLost();
    };
    const built = component.#build(limits).catch((error: unknown) => classify(error, component.#disposeReason ?? (component.#lost ? 'memory' : undefined)));
    const answer = await within(Promise.race([built, new Promise<string>((resolve) => (lost = resolve))]), limits.timeoutMs, () => TIMEOUT_FAILURE);
    if (answer === undefined) return component;
    component.dispose('evicted');
    return answer;
  }

  /** Compiles prelude, template and server bundle; answers a failure JSON, or undefined when ready. */
  async #build(limits: SandboxLimits): Promise<string | undefined> {
    const context = await this.#isolate.createContext();
    await context.evalClosure(
      `(${installPrelude.toString()})(globalThis, $0, ${JSON.stringify(preludeLimits(limits))}); (${hardenIntrinsics.toString()})(globalThis);`,
      [this.#bridge],
      { arguments: { reference: true } },
    );
    this.#run = (await context.global.get('__tesseraRun', { reference: true })) as ivm.Reference;
    for (const name of ['__tesseraRun', '__tesseraDescribe']) await context.global.delete(name);

    const template = await this.#isolate.compileScript(
      `__tesseraDefineTemplate((function(){var oc;${this.#code.template}\n;return oc.components;})(), ${JSON.stringify(this.#code.templateKey)});`,
    );
    await template.run(context, { timeout: bounded(limits.timeoutMs) });
    if (this.#code.server === undefined) return undefined;
    const server = await this.#isolate.compileScript(`__tesseraDefineServer(function(module, exports, require){${this.#code.server}\n});`);
    const loaded = (await server.run(context, { timeout: bounded(limits.timeoutMs) })) as string;
    return JSON.parse(loaded).ok ? undefined : loaded;
  }

  /** Disposed, or set to go once its executions end: a new request must build another. */
  get usable(): boolean {
    return !this.#isolate.isDisposed && !this.#retiring;
  }

  /**
   * Known busy: an execution in it has had code to run for longer than BUSY_AFTER_MS without
   * awaiting anything from outside (a loop, or work queued behind one). A new execution would wait
   * for it, so the host runs it in another isolate of the version instead.
   */
  get knownBusy(): boolean {
    const since = performance.now() - BUSY_AFTER_MS;
    for (const execution of this.#executions.values()) {
      if (execution.running && execution.calls.size === 0 && execution.runnableSince < since) return true;
    }
    return false;
  }

  /**
   * Runs one execution; always answers JSON (`{ok: true, …}` or a coded failure), at the latest when
   * its time limit passes: the wall clock also stops never-settling promises and loops that run after
   * an `await`, which the isolate's own CPU timeout does not see. Answers CANCELLED once cancelled.
   */
  execute(inputJson: string, id: number, timeoutMs: number): Promise<string> {
    if (!this.usable) return Promise.resolve(RECYCLED_FAILURE);
    return new Promise<string>((finish) => {
      const execution: Execution = {
        calls: new Set(),
        timer: setTimeout(() => this.dispose('timeout'), bounded(timeoutMs)),
        finish,
        cancelled: false,
        running: true,
        runnableSince: performance.now(),
      };
      this.#executions.set(id, execution);
      this.#run!.apply(undefined, [inputJson, id], asyncCall(timeoutMs)).then(
        (json) => {
          execution.running = false;
          this.#end(id, execution, json as string);
        },
        (error: unknown) => {
          execution.running = false;
          this.#end(id, execution, classify(error, this.#disposeReason ?? (this.#lost ? 'memory' : undefined)));
        },
      );
    });
  }

  #end(id: number, execution: Execution, answer: string): void {
    if (this.#executions.get(id) !== execution) return;
    this.#executions.delete(id);
    clearTimeout(execution.timer);
    this.#syncAnswers.delete(id);
    for (const resolve of execution.calls) resolve(ENDED);
    execution.calls.clear();
    if (answer.startsWith(MEMORY_ANSWER_PREFIX) || answer.endsWith(RECYCLE_SUFFIX)) this.#retire();
    if (this.#executions.size === 0) {
      this.#idleCpu = this.#isolate.isDisposed ? undefined : this.#isolate.cpuTime;
      if (this.#retiring) this.dispose('evicted');
    }
    execution.finish(execution.cancelled ? CANCELLED : answer);
  }

  /**
   * The execution's root request was answered. Its bridge calls end (it never resumes from them); if
   * it is still running code, and nothing else live shares the isolate, the isolate goes after a
   * short grace, so no tenant code outlives its request.
   */
  cancel(id: number): void {
    const execution = this.#executions.get(id);
    if (!execution || execution.cancelled) return;
    execution.cancelled = true;
    execution.finish(CANCELLED);
    if (execution.calls.size > 0) {
      this.#end(id, execution, CANCELLED);
      return;
    }
    setTimeout(() => {
      if (this.#executions.get(id) !== execution || !execution.running) return;
      for (const other of this.#executions.values()) if (!other.cancelled) return;
      this.dispose('cancelled');
    }, CANCEL_GRACE_MS).unref();
  }

  /**
   * Called from inside the isolate (the prelude holds the only reference) for nested renders and
   * plugins. An asynchronous call answers a promise. A synchronous one (a plugin) brings `signal`: its
   * answer is kept, the flag raised, and the execution, asleep on that flag, fetches the answer with
   * the `plugin-answer` call (see workers/isolate-prelude.ts).
   */
  readonly #bridge = (id: unknown, op: unknown, payload: unknown, signal?: unknown): Promise<string> | string | undefined => {
    if (typeof id !== 'number' || typeof payload !== 'string') return failure('GENERIC_ERROR', 'A bridge call was malformed.');
    if (op === 'plugin-answer') {
      const answer = this.#syncAnswers.get(id) ?? ENDED;
      this.#syncAnswers.delete(id);
      return answer;
    }
    const execution = this.#executions.get(id);
    const refusal = execution === undefined || execution.cancelled ? ENDED : this.#refusal(op, payload);
    if (signal === undefined) return refusal === undefined ? this.#call(id, execution!, op as BridgeOp, payload) : Promise.resolve(refusal);
    if (!(signal instanceof SharedArrayBuffer)) return failure('GENERIC_ERROR', 'A bridge call was malformed.');
    const wake = (answer: string) => {
      if (this.#executions.get(id) !== execution) return; // it ended (timed out) while the front worked
      this.#syncAnswers.set(id, answer);
      const flag = new Int32Array(signal);
      Atomics.store(flag, 0, 1);
      Atomics.notify(flag, 0);
    };
    if (refusal !== undefined) wake(refusal);
    else void this.#call(id, execution!, op as BridgeOp, payload).then(wake);
    return undefined;
  };

  /** Why a call of a live execution is refused, or undefined. */
  #refusal(op: unknown, payload: string): string | undefined {
    if (op !== 'render' && op !== 'plugin') return failure('GENERIC_ERROR', 'Unknown bridge operation.');
    if (payload.length > MAX_BRIDGE_PAYLOAD_CHARS) {
      return JSON.stringify({ ok: false, message: `The arguments of a ${op === 'render' ? 'nested render' : 'plugin call'} are over ${MAX_BRIDGE_PAYLOAD_CHARS} characters.` });
    }
    if (op === 'plugin') {
      const name: unknown = JSON.parse(payload)?.name;
      if (typeof name !== 'string' || !this.#code.plugins.includes(name)) return JSON.stringify({ ok: false, message: `Plugin "${String(name)}" is not declared by the component.` });
    }
    return undefined;
  }

  #call(id: number, execution: Execution, op: BridgeOp, payload: string): Promise<string> {
    return new Promise((resolve) => {
      execution.calls.add(resolve);
      void this.#forward(id, op, payload).then((answer) => {
        if (!execution.calls.delete(resolve)) return;
        execution.runnableSince = performance.now();
        resolve(answer);
      });
    });
  }

  /**
   * True when the isolate spent CPU time with no live execution since the last check (code that
   * outlived its answer): it is disposed then.
   */
  checkIdle(): boolean {
    if (this.#isolate.isDisposed || this.#executions.size > 0) return false;
    const cpu = this.#isolate.cpuTime;
    const ranWhileIdle = this.#idleCpu !== undefined && cpu - this.#idleCpu > IDLE_CPU_NS;
    this.#idleCpu = cpu;
    if (ranWhileIdle) this.dispose('ran-while-idle');
    return ranWhileIdle;
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

  /** No new execution enters; the isolate goes when its running executions end. */
  #retire(): void {
    this.#retiring = true;
  }

  /** Called when the host drops this isolate from its warm set; running executions finish first. */
  disposeWhenIdle(): void {
    this.#retire();
    if (this.#executions.size === 0) this.dispose('evicted');
  }

  dispose(reason: DisposeReason): void {
    if (this.#isolate.isDisposed) return;
    this.#disposeReason ??= reason;
    this.#isolate.dispose();
    const running = [...this.#executions.values()].filter((execution) => execution.running);
    const answer = reason === 'timeout' ? TIMEOUT_FAILURE : reason === 'memory' ? MEMORY_FAILURE : RECYCLED_FAILURE;
    for (const [id, execution] of this.#executions) this.#end(id, execution, answer);
    // V8 stops a disposed isolate's script at its next interrupt check; a long built-in call
    // (`new Array(1e8).fill(0)`) has none and keeps its thread busy. Such an isolate is as good as
    // lost: its host is recycled.
    if (running.length > 0) {
      setTimeout(() => {
        if (running.some((execution) => execution.running)) this.#lose();
      }, STOP_WAIT_MS).unref();
    }
  }

  #lose(): void {
    if (this.#lost) return;
    this.#lost = true;
    this.#retiring = true;
    this.#disposeReason ??= 'memory';
    for (const [id, execution] of this.#executions) this.#end(id, execution, MEMORY_FAILURE);
    this.#onLost();
  }
}

function classify(error: unknown, disposeReason: DisposeReason | undefined): string {
  const message = error instanceof Error ? error.message : String(error);
  if (disposeReason === 'timeout' || /execution timed out/i.test(message)) return TIMEOUT_FAILURE;
  if (disposeReason === 'memory' || /memory limit/i.test(message)) return MEMORY_FAILURE;
  if (disposeReason !== undefined) return RECYCLED_FAILURE;
  return failure('GENERIC_ERROR', `The component failed: ${message.slice(0, 1000)}`);
}
