import ivm from 'isolated-vm';
import { hardenIntrinsics } from './harden-intrinsics';
import { installPrelude, MESSAGE_ANSWERED, MESSAGE_CALL, type PreludeLimits } from './isolate-prelude';
import { latestRss, WATCH_EVERY_MS, type WatchedIsolate } from './memory-watchdog';
import { IdTable } from '../src/sandbox/id-table';
import { COOKIE_BOUNDS } from '../src/sandbox/tenancy-policy';
import { MAX_BRIDGE_PAYLOAD_CHARS, type BridgeOp, type ComponentCode, type SandboxLimits } from '../src/sandbox/protocol';

/** Sends a bridge call of one of this isolate's live executions to the front; answers its JSON. */
export type BridgeForwarder = (execution: number, op: BridgeOp, payload: string) => Promise<string>;

type DisposeReason = 'timeout' | 'memory' | 'evicted' | 'cancelled' | 'ran-while-idle';

const failure = (code: string, message: string): string => JSON.stringify({ ok: false, code, message });
export const TIMEOUT_FAILURE = failure('EXECUTION_TIMEOUT', 'The component passed its execution time limit.');
const MEMORY_FAILURE = failure('MEMORY_LIMIT_EXCEEDED', 'The component passed its sandbox memory limit; its sandbox was discarded.');
const RECYCLED_FAILURE = failure('SANDBOX_CRASHED', 'The sandbox running the component was recycled during the execution.');
/** What the executions of an isolate disposed for each reason are answered. */
const FAILURE_OF: Record<DisposeReason, string> = {
  timeout: TIMEOUT_FAILURE,
  memory: MEMORY_FAILURE,
  evicted: RECYCLED_FAILURE,
  cancelled: RECYCLED_FAILURE,
  'ran-while-idle': RECYCLED_FAILURE,
};
/** The dispose reason behind a failure answer (an isolate that went with a failed task). */
const reasonOf = (failure: string | undefined): DisposeReason => (failure === TIMEOUT_FAILURE ? 'timeout' : failure === MEMORY_FAILURE ? 'memory' : 'evicted');
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
  maxNestedRenders: limits.maxNestedRenders,
  cookies: COOKIE_BOUNDS,
});

/** The answer of an execution that was cancelled: the host sends nothing for it. */
export const CANCELLED = 'cancelled';

/** How long a disposed isolate's running script has to stop before the isolate counts as lost. */
const STOP_WAIT_MS = 1000;
/** The same, for an isolate stopped for its memory: it grows while it runs, so it gets less. */
const MEMORY_STOP_WAIT_MS = 100;
/** Growth of the host past which an isolate stopped for its memory is taken to be running still. */
const STILL_GROWING_BYTES = 16 * 1024 * 1024;
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

/** Starts and ends of work of the host's isolates, counted: who was at work beside whom (the memory watchdog asks). */
let workTick = 0;
const bounded = (ms: number): number => Math.min(Math.max(1, Math.ceil(ms)), LONGEST_MS);

/** One version of the component: a context of its own (its own globals and built-ins) in the isolate. */
interface VersionContext {
  readonly key: string;
  readonly plugins: readonly string[];
  context: ivm.Context | undefined;
  /** `__tesseraRunMany` of this context: starts a batch of executions. */
  runMany: ivm.Reference | undefined;
  /** Executions waiting for the next entry into the isolate: `[id, input JSON]`. */
  pending: Array<[number, string]>;
  /** Answers to bridge calls of its executions, for the next entry: `[call id, answer JSON]`. */
  callAnswers: Array<[number, string]>;
  /** The executions those answers resume (ENDED answers resume none). */
  resuming: number[];
  /** The longest time limit among them. */
  pendingTimeoutMs: number;
  /** Dropped from the warm set: its context goes once its executions end. */
  retired: boolean;
}

/** One execution in the isolate, from its start until it answers, passes its limit or is cancelled. */
interface Execution {
  readonly version: VersionContext;
  /** Resolvers of its bridge calls still waiting on the front; answered ENDED when it ends. */
  readonly calls: Set<(answer: string) => void>;
  /** Flags its synchronous calls (plugins) sleep on, from its first such call: raised when it ends, so its thread never sleeps on. */
  sleeping: Set<SharedArrayBuffer> | undefined;
  /** Its time limit: its own full limit (it then discards the isolate) or its caller's shorter budget. */
  timer: NodeJS.Timeout;
  readonly finish: (answer: string) => void;
  /** Its caller has been answered (cancelled, or its caller's budget passed): nothing more is sent for it. */
  cancelled: boolean;
  /** Its answer was delivered (and is held until its task ends): nothing may resume it any more. */
  answered: boolean;
  /** Calls into the isolate that started or resumed it and have not settled: while any has not, its code may be running. */
  tasks: number;
  /** Run for another tenant's request: that request's cancel never discards this isolate. */
  readonly foreign: boolean;
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
 * The isolate of ONE component: each of its warm versions is a context of its own in it (its own
 * globals and frozen built-ins, its template and server bundle compiled once), so a warm version
 * costs a context, not an isolate. Versions of different components never share an isolate: a
 * component's failure, time limit or memory blow-up discards only its own versions' sandbox.
 *
 * Ownership is explicit: the isolate knows its live executions and the version each belongs to, and
 * - only a live execution's bridge calls reach the front, only from its own version's context, and
 *   only for plugins that version declares;
 * - an execution that ended (answered, timed out, cancelled) gets no bridge answer that would resume
 *   it, so none of its code runs after its answer;
 * - an isolate that spends CPU time with no live execution is disposed (`checkIdle`).
 * Every execution enters through isolated-vm's asynchronous API, so the host's own thread never
 * waits on tenant code and its timers (the wall-clock limits) always fire. The executions of one
 * version that arrive in one event-loop turn enter together, in one call. A breached limit disposes
 * the whole isolate; the next request builds anew.
 */
export class ComponentIsolate implements WatchedIsolate {
  readonly #isolate: ivm.Isolate;
  readonly #limits: SandboxLimits;
  readonly #forward: BridgeForwarder;
  readonly #versions = new Map<string, VersionContext>();
  readonly #executions = new IdTable<Execution>();
  /** Answers of synchronous bridge calls (plugins), kept until the sleeping execution fetches them. */
  readonly #syncAnswers = new IdTable<string>();
  #flushScheduled = false;
  /**
   * Calls into the isolate not yet settled (batches and probes): while there is one, its thread may
   * be working. Each settles only once the task it started has ended, its microtasks included.
   */
  #calls = 0;
  /** Calls into the isolate and builds of its versions under way: while any is, its thread may be running code. */
  #work = 0;
  /** Since when (performance.now()) work has been under way without a break. */
  #busySince: number | undefined;
  /** The host's resident memory when that began. */
  #busyFromRss = 0;
  /**
   * Answers delivered from inside, held until the task that produced them has ended: code that runs
   * on after its execution answered (a microtask flood, a loop queued behind the answer) keeps the
   * task, and the answer, from ever standing; its time limit answers instead.
   */
  #held: Array<[number, string]> = [];
  #probeScheduled = false;
  #disposeReason: DisposeReason | undefined;
  #lost = false;
  readonly #onLost: (keys: string[]) => void;
  /** Told the CPU time (ns) the isolate spent since it was last told (its tenant's CPU seconds). */
  readonly #onCpu: (ns: bigint) => void;
  #cpuTold = 0n;
  /** Builds under way, told when the isolate is lost (a build V8 cannot finish never settles). */
  readonly #building = new Set<(answer: string) => void>();
  #retiring = false;
  /** The isolate's CPU time at the last idle check, or when it last had nothing left to run (no execution, no build). */
  #idleCpu: bigint | undefined;
  #heapBytes = 0;
  /** Its heap as last read before its current or last work began. */
  #heapAtWork = 0;
  #busyTick = 0;
  /** Executions of its own tenant's requests running, and when one last started or ended. */
  #ownRunning = 0;
  #ownTick = 0;

  /**
   * `onLost` is told, with the versions it was running, when V8 loses control of the isolate;
   * `onCpu`, the CPU time it spent, at each `tellCpu` and when it is disposed.
   */
  /** The tenant whose component it runs. */
  readonly tenant: string;

  constructor(tenant: string, limits: SandboxLimits, forward: BridgeForwarder, onLost: (keys: string[]) => void, onCpu: (ns: bigint) => void) {
    this.tenant = tenant;
    this.#limits = limits;
    this.#forward = forward;
    this.#onLost = onLost;
    this.#onCpu = onCpu;
    this.#isolate = new ivm.Isolate({
      memoryLimit: limits.memoryMb,
      // A single allocation too large for any heap (`new Array(1e8).fill(0)`) fails inside V8 before
      // the memory limit can stop it. isolated-vm then parks the isolate's thread for good; its
      // executions are answered here, and the host process must be recycled to get the memory back.
      onCatastrophicError: () => this.#lose(),
    });
  }

  /**
   * Builds a version's context within the time limit: answers undefined when it is ready, or the
   * failure as JSON (a failing component, a breached limit: then the isolate is gone too).
   */
  async addVersion(key: string, code: ComponentCode): Promise<string | undefined> {
    const version: VersionContext = {
      key,
      plugins: code.constants.plugins,
      context: undefined,
      runMany: undefined,
      pending: [],
      callAnswers: [],
      resuming: [],
      pendingTimeoutMs: 0,
      retired: false,
    };
    this.#versions.set(key, version);
    let lost: (answer: string) => void = () => {};
    const whenLost = new Promise<string>((resolve) => (lost = resolve));
    this.#building.add(lost);
    // Building runs the version's top-level code: the isolate is at work, as in a call (the memory watchdog watches both).
    this.#workStarted();
    const built = this.#build(version, code)
      .catch((error: unknown) => classify(error, this.#disposeReason ?? (this.#lost ? 'memory' : undefined)))
      .finally(() => this.#workEnded());
    const answer = await within(Promise.race([built, whenLost]), this.#limits.timeoutMs, () => TIMEOUT_FAILURE);
    this.#building.delete(lost);
    // Building runs the version's top-level code, with no execution in the isolate: that CPU is not
    // code outliving its answer, so idleness is counted from the end of the build, the release of a
    // failed version's context included.
    const idleFromHere = () => {
      if (!this.#isolate.isDisposed) this.#idleCpu = this.#isolate.cpuTime;
    };
    if (this.#versions.get(key) !== version) {
      // Dropped from the warm set while it was being built.
      version.runMany?.release();
      version.context?.release();
      idleFromHere();
      return answer ?? RECYCLED_FAILURE;
    }
    if (answer === undefined) {
      idleFromHere();
      return undefined;
    }
    // A component whose top-level code breached a limit may still hold the isolate's thread.
    if (answer === TIMEOUT_FAILURE || answer === MEMORY_FAILURE) this.dispose(answer === TIMEOUT_FAILURE ? 'timeout' : 'memory');
    else this.removeVersion(key);
    idleFromHere();
    return answer;
  }

  /** Compiles prelude, template and server bundle in a new context; answers a failure JSON, or undefined when ready. */
  async #build(version: VersionContext, code: ComponentCode): Promise<string | undefined> {
    const context = await this.#isolate.createContext();
    version.context = context;
    const bridge = (id: unknown, op: unknown, payload: unknown, signal?: unknown) => this.#bridge(version, id, op, payload, signal);
    const deliver = (messages: unknown) => this.#posted(version, messages);
    await context.evalClosure(
      `(${installPrelude.toString()})(globalThis, $0, $1, ${JSON.stringify(preludeLimits(this.#limits))}, ${JSON.stringify(code.constants)}); (${hardenIntrinsics.toString()})(globalThis);`,
      [bridge, deliver],
      { arguments: { reference: true } },
    );
    // The prelude's entry points are taken by reference and removed from the global object before
    // any tenant code runs: a view's top-level code, which runs first, could otherwise replace the
    // hook that loads the server bundle and answer the build in the host's or the registry's words.
    const hook = (name: string) => context.global.get(name, { reference: true }) as Promise<ivm.Reference>;
    version.runMany = await hook('__tesseraRunMany');
    const defineTemplate = await hook('__tesseraDefineTemplate');
    const defineServer = await hook('__tesseraDefineServer');
    for (const name of ['__tesseraRunMany', '__tesseraDescribe', '__tesseraDefineTemplate', '__tesseraDefineServer']) await context.global.delete(name);
    try {
      const timeout = bounded(this.#limits.timeoutMs);
      const template = await this.#isolate.compileScript(`(function(){var oc;${code.template}\n;return oc.components;})()`);
      const components = (await template.run(context, { timeout, reference: true })) as ivm.Reference;
      await defineTemplate.apply(undefined, [components.derefInto(), code.templateKey], { timeout });
      components.release();
      if (code.server === undefined) return undefined;
      const server = await this.#isolate.compileScript(`(function(module, exports, require){${code.server}\n})`);
      const factory = (await server.run(context, { timeout, reference: true })) as ivm.Reference;
      // What the prelude answers: its own JSON, whatever the bundle did.
      const loaded = (await defineServer.apply(undefined, [factory.derefInto()], { timeout, result: { copy: true } })) as string;
      factory.release();
      return JSON.parse(loaded).ok ? undefined : loaded;
    } finally {
      defineTemplate.release();
      defineServer.release();
    }
  }

  /** Disposed, or set to go once its executions end: a new request must build another. */
  get usable(): boolean {
    return !this.#isolate.isDisposed && !this.#retiring;
  }

  /** How long calls into the isolate have been under way without a break (0 when none is). */
  busyFor(now: number): number {
    return this.#busySince === undefined ? 0 : now - this.#busySince;
  }

  /** Versions with a context here (built or building). */
  get versionCount(): number {
    return this.#versions.size;
  }

  /**
   * Runs one execution of a version whose context is built; `finish` always gets JSON (`{ok: true, …}`
   * or a coded failure), at the latest when its time limit passes: the wall clock also stops
   * never-settling promises and loops that run after an `await`, which the isolate's own CPU timeout
   * does not see. Gets CANCELLED once cancelled.
   */
  execute(key: string, inputJson: string, id: number, timeoutMs: number, foreign: boolean, finish: (answer: string) => void): void {
    const version = this.#versions.get(key);
    if (!this.usable || version?.runMany === undefined || version.retired) {
      finish(RECYCLED_FAILURE);
      return;
    }
    // Only an execution's own full limit, passed, discards the isolate; one that came with less (its
    // caller's budget was nearly spent, or building the version took part of it) is answered at its
    // deadline and the isolate, other visitors' work, is kept (decisions §13).
    const ownLimit = timeoutMs >= this.#limits.timeoutMs;
    if (!foreign) {
      this.#ownRunning++;
      this.#ownTick = ++workTick;
    }
    this.#executions.set(id, {
      version,
      calls: new Set(),
      sleeping: undefined,
      timer: setTimeout(() => (ownLimit ? this.dispose('timeout') : this.#expire(id)), bounded(timeoutMs)),
      finish,
      cancelled: false,
      answered: false,
      tasks: 0,
      foreign,
    });
    version.pending.push([id, inputJson]);
    version.pendingTimeoutMs = Math.max(version.pendingTimeoutMs, timeoutMs);
    this.#scheduleFlush();
  }

  #scheduleFlush(): void {
    if (this.#flushScheduled) return;
    this.#flushScheduled = true;
    // After the turn's other messages: the executions of one version that arrived together, and the
    // answers to its calls, enter at once.
    setImmediate(this.#flush);
  }

  readonly #flush = (): void => {
    this.#flushScheduled = false;
    for (const version of this.#versions.values()) {
      const callAnswers = version.callAnswers;
      const resuming = version.resuming;
      if (version.pending.length === 0 && callAnswers.length === 0) continue;
      version.callAnswers = [];
      version.resuming = [];
      // Answers alone wait for nothing in a disposed isolate: its executions were all answered.
      if (version.pending.length === 0 && this.#isolate.isDisposed) continue;
      const batch: Array<[number, string]> = [];
      for (const entry of version.pending) {
        const execution = this.#executions.get(entry[0]);
        // Cancelled before it entered: it ends here, or its timer would take the isolate down.
        if (execution?.cancelled) this.#end(entry[0], execution, CANCELLED);
        else if (execution) batch.push(entry);
      }
      const timeoutMs = version.pendingTimeoutMs || this.#limits.timeoutMs;
      version.pending = [];
      version.pendingTimeoutMs = 0;
      if (batch.length > 0 || callAnswers.length > 0) this.#enter(version, batch, timeoutMs, callAnswers, resuming);
    }
  };

  /**
   * Starts a batch of executions in the version's context, after answering calls of earlier ones
   * (resuming them); an entry with neither is a probe: it only waits its turn.
   */
  #enter(version: VersionContext, batch: Array<[number, string]>, timeoutMs: number, callAnswers: Array<[number, string]> = [], resuming: number[] = []): void {
    if (this.#isolate.isDisposed) {
      // Disposed already (by us, or by isolated-vm past its memory limit): whatever waits to run in
      // it is answered; the reason of our own dispose, if any, stands.
      this.dispose('memory');
      return;
    }
    if (version.runMany === undefined) return;
    this.#calls++;
    this.#workStarted();
    const running: Execution[] = [];
    const started = (id: number) => {
      const execution = this.#executions.get(id);
      if (execution === undefined) return;
      execution.tasks++;
      running.push(execution);
    };
    for (const entry of batch) started(entry[0]);
    for (const id of resuming) started(id);
    version.runMany.apply(undefined, [batch, callAnswers], { arguments: { copy: true }, timeout: bounded(timeoutMs) }).then(
      () => this.#taskEnded(batch, running, undefined),
      (error: unknown) => this.#taskEnded(batch, running, classify(error, this.#disposeReason ?? (this.#lost ? 'memory' : undefined))),
    );
  }

  /**
   * A call into the isolate settled: the task it started has ended, and with it every task before
   * (an isolate runs one at a time). The answers held so far stand, unless that task failed (a
   * limit stopped it): then they, and the batch's executions, get the failure.
   */
  #taskEnded(batch: Array<[number, string]>, running: Execution[], failed: string | undefined): void {
    this.#calls--;
    this.#workEnded();
    for (const execution of running) execution.tasks--;
    const held = this.#held;
    this.#held = [];
    for (const [id, answer] of held) {
      const execution = this.#executions.get(id);
      if (execution) this.#end(id, execution, failed ?? answer);
    }
    if (failed === undefined) return;
    for (const [id] of batch) {
      const execution = this.#executions.get(id);
      if (execution) this.#end(id, execution, failed);
    }
    // The limit that stopped the task may have taken the isolate with it (isolated-vm disposes one
    // past its memory limit): the executions left, waiting on nested renders, can never resume.
    if (this.#isolate.isDisposed) this.dispose(reasonOf(failed));
  }

  /**
   * Waits for the task under way to end: a probe (an empty batch) queues behind it. Used when code
   * resumed by the isolate itself (after a bridge answer) may be running with no call of ours.
   */
  #probe(): void {
    if (this.#probeScheduled) return;
    this.#probeScheduled = true;
    setImmediate(() => {
      this.#probeScheduled = false;
      const version = [...this.#versions.values()].find((candidate) => candidate.runMany !== undefined);
      if (version) this.#enter(version, [], this.#limits.timeoutMs);
    });
  }

  /**
   * Messages from inside a version's context (the prelude holds the only reference), in the order
   * they were made: answers of its executions and their nested-render calls (workers/isolate-prelude.ts).
   * Only ids of that version's live executions count.
   */
  #posted(version: VersionContext, messages: unknown): void {
    if (!Array.isArray(messages)) return;
    for (const message of messages) {
      if (!Array.isArray(message)) continue;
      if (message[0] === MESSAGE_ANSWERED) this.#delivered(version, message[1], message[2]);
      else if (message[0] === MESSAGE_CALL) this.#called(version, message[1], message[2], message[3], message[4]);
    }
    if (this.#calls === 0) this.#probe();
  }

  /** An execution's answer: held until the task that produced it ends. */
  #delivered(version: VersionContext, id: unknown, answer: unknown): void {
    if (typeof id !== 'number' || typeof answer !== 'string') return;
    const execution = this.#executions.get(id);
    if (!execution || execution.version !== version || execution.answered) return;
    this.#held.push([id, answer]);
    // Answered: a bridge answer arriving before its task ends must not resume it (a loop waiting on a
    // nested render would run after the answer).
    execution.answered = true;
    for (const resolve of execution.calls) resolve(ENDED);
    execution.calls.clear();
  }

  /**
   * A nested render asked for by an execution: sent to the front, unless refused. Its answer (ENDED
   * once the execution has ended) enters the isolate with the version's next entry.
   */
  #called(version: VersionContext, id: unknown, callId: unknown, op: unknown, payload: unknown): void {
    if (typeof callId !== 'number') return;
    const answerCall = (answer: string) => {
      if (this.#versions.get(version.key) !== version) return; // its context is gone
      version.callAnswers.push([callId, answer]);
      if (answer !== ENDED && typeof id === 'number') version.resuming.push(id);
      this.#scheduleFlush();
    };
    if (typeof id !== 'number' || typeof payload !== 'string' || op !== 'render') {
      answerCall(failure('GENERIC_ERROR', 'A bridge call was malformed.'));
      return;
    }
    const execution = this.#executions.get(id);
    const own = execution !== undefined && execution.version === version ? execution : undefined;
    const refusal = own === undefined || own.cancelled || own.answered ? ENDED : this.#refusal(version, op, payload);
    if (refusal !== undefined) answerCall(refusal);
    else void this.#call(id, own!, op, payload).then(answerCall);
  }

  #end(id: number, execution: Execution, answer: string): void {
    if (this.#executions.get(id) !== execution) return;
    this.#executions.delete(id);
    if (!execution.foreign) {
      this.#ownRunning--;
      this.#ownTick = ++workTick;
    }
    clearTimeout(execution.timer);
    this.#syncAnswers.delete(id);
    this.#wake(execution);
    for (const resolve of execution.calls) resolve(ENDED);
    execution.calls.clear();
    if (answer.startsWith(MEMORY_ANSWER_PREFIX) || answer.endsWith(RECYCLE_SUFFIX)) this.#retire();
    if (this.#executions.size === 0) {
      this.#idleCpu = this.#isolate.isDisposed ? undefined : this.#isolate.cpuTime;
      if (this.#retiring) this.dispose('evicted');
    }
    if (execution.version.retired && !this.#runs(execution.version)) this.#release(execution.version);
    if (!execution.cancelled) execution.finish(answer);
  }

  /**
   * The execution's root request was answered. Its time limit is cleared, a plugin call it sleeps
   * on wakes, and its bridge calls end (it never resumes from them); if it is still running code,
   * and nothing else live shares the isolate, the isolate goes after a short grace, so no tenant
   * code outlives its request; with live neighbours it runs on only until its call's own time limit.
   */
  cancel(id: number): void {
    const execution = this.#executions.get(id);
    if (!execution || execution.cancelled) return;
    execution.cancelled = true;
    execution.finish(CANCELLED);
    this.#wake(execution);
    if (execution.calls.size > 0 || execution.tasks === 0) {
      this.#end(id, execution, CANCELLED);
      return;
    }
    clearTimeout(execution.timer);
    // Run for another tenant's request: the code still running for it is stopped by its call's own
    // time limit, never by discarding this tenant's isolate.
    if (execution.foreign) {
      execution.timer = this.#linger(id, execution, CANCELLED);
      return;
    }
    execution.timer = setTimeout(() => {
      if (this.#executions.get(id) !== execution) return;
      for (const other of this.#executions.values()) if (!other.cancelled) return;
      this.dispose('cancelled');
    }, CANCEL_GRACE_MS).unref();
  }

  /**
   * Keeps an execution whose caller was answered until its code stops (its call's own time limit
   * stops it without discarding the isolate); only if it still runs at its own full limit from now
   * does the isolate go.
   */
  #linger(id: number, execution: Execution, answer: string): NodeJS.Timeout {
    return setTimeout(() => {
      if (this.#executions.get(id) !== execution) return;
      if (execution.tasks > 0) this.dispose('timeout');
      else this.#end(id, execution, answer);
    }, bounded(this.#limits.timeoutMs));
  }

  /**
   * The execution's deadline passed before its own full limit (its caller's budget was short): its
   * caller gets EXECUTION_TIMEOUT now. Code of it still running stays within its call's own time
   * limit, which stops it without discarding the isolate; only if it still runs at its own full
   * limit does the isolate go.
   */
  #expire(id: number): void {
    const execution = this.#executions.get(id);
    if (!execution || execution.cancelled) return;
    execution.cancelled = true;
    execution.finish(TIMEOUT_FAILURE);
    this.#wake(execution);
    for (const resolve of execution.calls) resolve(ENDED);
    execution.calls.clear();
    if (execution.tasks === 0) {
      this.#end(id, execution, TIMEOUT_FAILURE);
      return;
    }
    execution.timer = this.#linger(id, execution, TIMEOUT_FAILURE);
  }

  /** Wakes the plugin calls the execution sleeps on: each finds its answer gone and gets ENDED. */
  #wake(execution: Execution): void {
    if (execution.sleeping === undefined) return;
    for (const signal of execution.sleeping) raiseFlag(signal);
    execution.sleeping.clear();
  }

  /**
   * Called from inside a version's context (the prelude holds the only reference) for synchronous
   * calls (plugins; nested renders come as messages, see #called). A call brings `signal`: its answer
   * is kept, the flag raised, and the execution, asleep on that flag, fetches the answer with the
   * `plugin-answer` call (see workers/isolate-prelude.ts).
   */
  #bridge(version: VersionContext, id: unknown, op: unknown, payload: unknown, signal?: unknown): string | undefined {
    if (typeof id !== 'number' || typeof payload !== 'string') return failure('GENERIC_ERROR', 'A bridge call was malformed.');
    const execution = this.#executions.get(id);
    // An execution id of another version of the component names nothing this context may act for.
    const own = execution !== undefined && execution.version === version ? execution : undefined;
    if (op === 'plugin-answer') {
      const answer = own && !own.cancelled ? this.#syncAnswers.get(id) : undefined;
      if (own) this.#syncAnswers.delete(id);
      return answer ?? ENDED;
    }
    if (!(signal instanceof SharedArrayBuffer)) return failure('GENERIC_ERROR', 'A bridge call was malformed.');
    const refusal = own === undefined || own.cancelled || own.answered ? ENDED : this.#refusal(version, op, payload);
    const raise = () => raiseFlag(signal);
    if (refusal !== undefined) {
      // A refused call wakes at once; one of an ended execution finds nothing to fetch and gets ENDED.
      if (own !== undefined) this.#syncAnswers.set(id, refusal);
      raise();
    } else {
      // Woken by the answer, or at once when the execution ends or is cancelled first (#wake).
      (own!.sleeping ??= new Set()).add(signal);
      void this.#call(id, own!, op as BridgeOp, payload).then((answer) => {
        if (!own!.sleeping!.delete(signal)) return; // woken already: it ended or was cancelled while the front worked
        this.#syncAnswers.set(id, answer);
        raise();
      });
    }
    return undefined;
  }

  /** Why a call of a live execution is refused, or undefined. */
  #refusal(version: VersionContext, op: unknown, payload: string): string | undefined {
    if (op !== 'render' && op !== 'plugin') return failure('GENERIC_ERROR', 'Unknown bridge operation.');
    if (payload.length > MAX_BRIDGE_PAYLOAD_CHARS) {
      return JSON.stringify({ ok: false, message: `The arguments of a ${op === 'render' ? 'nested render' : 'plugin call'} are over ${MAX_BRIDGE_PAYLOAD_CHARS} characters.` });
    }
    if (op === 'plugin') {
      const name: unknown = JSON.parse(payload)?.name;
      if (typeof name !== 'string' || !version.plugins.includes(name)) return JSON.stringify({ ok: false, message: `Plugin "${String(name)}" is not declared by the component.` });
    }
    return undefined;
  }

  /** Sends a call to the front; answers its answer, or ENDED once the execution ends first. */
  #call(id: number, execution: Execution, op: BridgeOp, payload: string): Promise<string> {
    return new Promise((resolve) => {
      execution.calls.add(resolve);
      void this.#forward(id, op, payload).then((answer) => {
        if (execution.calls.delete(resolve)) resolve(answer);
      });
    });
  }

  /**
   * True when the isolate spent CPU time with no live execution and no version being built since
   * the last check (code that outlived its answer): it is disposed then.
   */
  checkIdle(): boolean {
    if (this.#isolate.isDisposed || this.#executions.size > 0 || this.#building.size > 0) return false;
    const cpu = this.#isolate.cpuTime;
    const ranWhileIdle = this.#idleCpu !== undefined && cpu - this.#idleCpu > IDLE_CPU_NS;
    this.#idleCpu = cpu;
    if (ranWhileIdle) this.dispose('ran-while-idle');
    return ranWhileIdle;
  }

  /** How much the host grew since this isolate's work began without a break, once it has lasted two readings (the memory watchdog's). */
  growthWhileBusy(rss: number, now: number): number | undefined {
    if (this.#busySince === undefined || this.#isolate.isDisposed || now - this.#busySince < 2 * WATCH_EVERY_MS) return undefined;
    return rss - this.#busyFromRss;
  }

  /** Its thread's CPU time (ns): a thread asleep in a plugin call spends none. */
  cpuNs(): bigint {
    return this.#isolate.isDisposed ? 0n : this.#isolate.cpuTime;
  }

  /**
   * Discarded for memory taken inside a built-in, which its heap limit does not stop: its executions
   * are answered MEMORY_LIMIT_EXCEEDED at once; a thread still at work after MEMORY_STOP_WAIT_MS makes
   * the isolate lost, and its host is recycled, which takes the memory back.
   */
  stopForMemory(sole: boolean): void {
    const running = [...this.#executions.values()].map((execution) => execution.version.key);
    const rss = latestRss();
    this.dispose('memory', MEMORY_STOP_WAIT_MS);
    // isolated-vm may settle a call into a disposed isolate before its thread leaves the built-in:
    // when this isolate alone was at work, a host still growing after the wait tells that it has not.
    if (!sole) return;
    setTimeout(() => {
      if (latestRss() > rss + STILL_GROWING_BYTES) this.#lose(running);
    }, MEMORY_STOP_WAIT_MS).unref();
  }

  #workStarted(): void {
    if (this.#work++ > 0) return;
    this.#busySince = performance.now();
    this.#busyFromRss = latestRss();
    this.#busyTick = ++workTick;
    this.#heapAtWork = this.#heapBytes;
  }

  #workEnded(): void {
    if (--this.#work > 0) return;
    this.#busySince = undefined;
  }

  /** When its work without a break began, on the host's count of starts and ends of work. */
  get busyTick(): number {
    return this.#busyTick;
  }

  /**
   * Whether it ran an execution of its own tenant's requests at any time since `tick` (a count
   * `busyTick` reads): executions another tenant's request caused (nested renders of it) are that
   * tenant's doing, and never explain another isolate's growth.
   */
  workedSince(tick: number): boolean {
    return this.#ownRunning > 0 || this.#ownTick > tick;
  }

  /** How much its heap grew since its last work began (from the heap read before it, at the latest). */
  async growthSinceWork(): Promise<number> {
    return (await this.heapBytes()) - this.#heapAtWork;
  }

  /** Tells `onCpu` the CPU time spent since it was last told (nothing once disposed: that was told then). */
  tellCpu(): void {
    if (this.#isolate.isDisposed) return;
    const cpu = this.#isolate.cpuTime;
    if (cpu > this.#cpuTold) this.#onCpu(cpu - this.#cpuTold);
    this.#cpuTold = cpu;
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

  /** The version leaves the warm set: no new execution enters it, its context goes once its executions end. */
  removeVersion(key: string): void {
    const version = this.#versions.get(key);
    if (!version) return;
    version.retired = true;
    if (!this.#runs(version)) this.#release(version);
  }

  #runs(version: VersionContext): boolean {
    for (const execution of this.#executions.values()) if (execution.version === version) return true;
    return false;
  }

  #release(version: VersionContext): void {
    if (this.#versions.get(version.key) !== version) return;
    this.#versions.delete(version.key);
    version.runMany?.release();
    version.context?.release();
    if (this.#versions.size === 0) this.disposeWhenIdle();
  }

  /** No new execution enters; the isolate goes when its running executions end. */
  #retire(): void {
    this.#retiring = true;
  }

  /** Called when the host drops this isolate; running executions finish first. */
  disposeWhenIdle(): void {
    this.#retire();
    if (this.#executions.size === 0) this.dispose('evicted');
  }

  dispose(reason: DisposeReason, stopWaitMs = STOP_WAIT_MS): void {
    this.#disposeReason ??= reason;
    this.#retiring = true;
    // isolated-vm disposes an isolate itself when it passes its memory limit: executions waiting on a
    // bridge answer are still here then, and must be answered all the same.
    if (this.#isolate.isDisposed) {
      for (const [id, execution] of this.#executions) this.#end(id, execution, FAILURE_OF[this.#disposeReason]);
      return;
    }
    this.tellCpu();
    this.#isolate.dispose();
    const running = this.#work > 0 ? [...this.#executions.values()].map((execution) => execution.version.key) : [];
    const answer = FAILURE_OF[reason];
    for (const [id, execution] of this.#executions) this.#end(id, execution, answer);
    // V8 stops a disposed isolate's script at its next interrupt check; a long built-in call
    // (`new Array(1e8).fill(0)`) has none and keeps its thread busy. Such an isolate is as good as
    // lost: its host is recycled.
    if (this.#work > 0) {
      setTimeout(() => {
        if (this.#work > 0) this.#lose(running);
      }, stopWaitMs).unref();
    }
  }

  #lose(keys?: string[]): void {
    if (this.#lost) return;
    this.#lost = true;
    this.#retiring = true;
    this.#disposeReason ??= 'memory';
    const running = keys ?? [...this.#executions.values()].map((execution) => execution.version.key);
    for (const [id, execution] of this.#executions) this.#end(id, execution, MEMORY_FAILURE);
    for (const lost of this.#building) lost(MEMORY_FAILURE);
    this.#onLost([...new Set(running.length > 0 ? running : this.#versions.keys())]);
  }
}

/** Raises a flag an isolate's thread sleeps on (`Atomics.wait` in the prelude), waking it. */
function raiseFlag(signal: SharedArrayBuffer): void {
  const flag = new Int32Array(signal);
  Atomics.store(flag, 0, 1);
  Atomics.notify(flag, 0);
}

function classify(error: unknown, disposeReason: DisposeReason | undefined): string {
  const message = error instanceof Error ? error.message : String(error);
  if (disposeReason === 'timeout' || /execution timed out/i.test(message)) return TIMEOUT_FAILURE;
  if (disposeReason === 'memory' || /memory limit/i.test(message)) return MEMORY_FAILURE;
  if (disposeReason !== undefined) return RECYCLED_FAILURE;
  return failure('GENERIC_ERROR', `The component failed: ${message.slice(0, 1000)}`);
}
