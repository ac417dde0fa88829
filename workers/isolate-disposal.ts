import type ivm from 'isolated-vm';
import type { Execution, ExecutionTable } from './execution-table';
import { componentFailure, MEMORY_FAILURE, RECYCLED_FAILURE, TIMEOUT_FAILURE, type IsolateAnswer } from './isolate-answers';
import type { IsolateReadings } from './isolate-readings';
import { latestRss } from './memory-watchdog';

/**
 * Why an isolate is disposed: a limit passed (its time, its memory), its host dropped it (evicted,
 * or its last version left), its cancelled execution kept running past its grace, or it ran code with
 * no execution in it.
 */
export type DisposeReason = 'timeout' | 'memory' | 'evicted' | 'cancelled' | 'ran-while-idle';

/** What the executions of an isolate disposed for each reason are answered. */
export const FAILURE_OF: Readonly<Record<DisposeReason, IsolateAnswer>> = {
  timeout: TIMEOUT_FAILURE,
  memory: MEMORY_FAILURE,
  evicted: RECYCLED_FAILURE,
  cancelled: RECYCLED_FAILURE,
  'ran-while-idle': RECYCLED_FAILURE,
};

/** The dispose reason behind a failure answer (an isolate that went with a failed task). */
export const reasonOf = (failed: IsolateAnswer): DisposeReason => failed.limit ?? 'evicted';

/** How long a disposed isolate's running script has to stop before the isolate counts as lost. */
const STOP_WAIT_MS = 1000;
/** The same, for an isolate stopped for its memory: it grows while it runs, so it gets less. */
const MEMORY_STOP_WAIT_MS = 100;
/** Growth of the host past which an isolate stopped for its memory is taken to be running still. */
const STILL_GROWING_BYTES = 16 * 1024 * 1024;

/**
 * What a call into the isolate that failed is answered: the limit that stopped it (isolated-vm's
 * words, or the reason the isolate was disposed for, if it was), else the component's own failure.
 */
export function classify(error: unknown, disposeReason: DisposeReason | undefined): IsolateAnswer {
  const message = error instanceof Error ? error.message : String(error);
  if (disposeReason === 'timeout' || /execution timed out/i.test(message)) return TIMEOUT_FAILURE;
  if (disposeReason === 'memory' || /memory limit/i.test(message)) return MEMORY_FAILURE;
  if (disposeReason !== undefined) return RECYCLED_FAILURE;
  return componentFailure('GENERIC_ERROR', `The component failed: ${message.slice(0, 1000)}`);
}

/** What disposal asks of its isolate. */
export interface DisposalHooks {
  /** Ends an execution whose isolate went, with its answer. */
  end(id: number, execution: Execution, answer: IsolateAnswer): void;
  /**
   * V8 lost control of the isolate, running these versions (or holding them); `stillRunning`: its
   * thread is still at work in a built-in (a catastrophic failure parks it instead).
   */
  lost(keys: string[], stillRunning: boolean): void;
  /** The versions it holds, for a loss with none running. */
  versionKeys(): Iterable<string>;
  /** It went for its memory (its heap limit, or the watchdog): told once. */
  discardedForMemory(): void;
}

/**
 * The end of an isolate: why it went (the first reason stands), whether it is set to go once its
 * executions end (retiring), and whether V8 lost control of it (lost: its host must be recycled to
 * take its memory back). Its executions are answered for the reason it went.
 */
export class IsolateDisposal {
  readonly #isolate: ivm.Isolate;
  readonly #executions: ExecutionTable;
  readonly #readings: IsolateReadings;
  readonly #hooks: DisposalHooks;
  #reason: DisposeReason | undefined;
  #lost = false;
  #retiring = false;
  #memoryTold = false;
  /** Builds under way, told when the isolate is lost (a build V8 cannot finish never settles). */
  readonly building = new Set<(answer: IsolateAnswer) => void>();

  constructor(isolate: ivm.Isolate, executions: ExecutionTable, readings: IsolateReadings, hooks: DisposalHooks) {
    this.#isolate = isolate;
    this.#executions = executions;
    this.#readings = readings;
    this.#hooks = hooks;
  }

  /** Set to go once its executions end: no new execution enters. */
  get retiring(): boolean {
    return this.#retiring;
  }

  retire(): void {
    this.#retiring = true;
  }

  /** What a failed call into the isolate, or a failed build, is answered: the reason it was disposed for stands. */
  failureOf(error: unknown): IsolateAnswer {
    return classify(error, this.#reason ?? (this.#lost ? 'memory' : undefined));
  }

  /** An execution failed for the isolate's memory (its heap limit, or the watchdog): it goes once the others end. */
  memoryFailed(): void {
    this.#tellMemory();
    this.#retiring = true;
  }

  #tellMemory(): void {
    if (this.#memoryTold) return;
    this.#memoryTold = true;
    this.#hooks.discardedForMemory();
  }

  dispose(reason: DisposeReason, stopWaitMs = STOP_WAIT_MS): void {
    if (reason === 'memory') this.#tellMemory();
    this.#reason ??= reason;
    this.#retiring = true;
    // isolated-vm disposes an isolate itself when it passes its memory limit: executions waiting on a
    // bridge answer are still here then, and must be answered all the same.
    if (this.#isolate.isDisposed) {
      for (const [id, execution] of this.#executions) this.#hooks.end(id, execution, FAILURE_OF[this.#reason]);
      return;
    }
    this.#readings.tellCpu();
    this.#isolate.dispose();
    const running = this.#readings.working ? this.#executions.versionKeys() : [];
    const answer = FAILURE_OF[reason];
    for (const [id, execution] of this.#executions) this.#hooks.end(id, execution, answer);
    // V8 stops a disposed isolate's script at its next interrupt check; a long built-in call
    // (`new Array(1e8).fill(0)`) has none and keeps its thread busy. Such an isolate is as good as
    // lost: its host is recycled.
    if (this.#readings.working) {
      setTimeout(() => {
        if (this.#readings.working) this.lose(running, true);
      }, stopWaitMs).unref();
    }
  }

  /**
   * Discarded for memory taken inside a built-in, which its heap limit does not stop: its executions
   * are answered MEMORY_LIMIT_EXCEEDED at once; a thread still at work after MEMORY_STOP_WAIT_MS makes
   * the isolate lost, and its host is recycled, which takes the memory back.
   */
  stopForMemory(sole: boolean): void {
    const running = this.#executions.versionKeys();
    const rss = latestRss();
    this.dispose('memory', MEMORY_STOP_WAIT_MS);
    // isolated-vm may settle a call into a disposed isolate before its thread leaves the built-in:
    // when this isolate alone was at work, a host still growing after the wait tells that it has not.
    if (!sole) return;
    setTimeout(() => {
      if (latestRss() > rss + STILL_GROWING_BYTES) this.lose(running, true);
    }, MEMORY_STOP_WAIT_MS).unref();
  }

  lose(keys?: string[], stillRunning = false): void {
    if (this.#lost) return;
    this.#lost = true;
    this.#retiring = true;
    this.#reason ??= 'memory';
    const running = keys ?? this.#executions.versionKeys();
    for (const [id, execution] of this.#executions) this.#hooks.end(id, execution, MEMORY_FAILURE);
    for (const lost of this.building) lost(MEMORY_FAILURE);
    this.#hooks.lost([...new Set(running.length > 0 ? running : this.#hooks.versionKeys())], stillRunning);
  }
}
