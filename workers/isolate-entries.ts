import type ivm from 'isolated-vm';
import { isLetGo, moveTo } from './execution-state';
import type { Execution, ExecutionTable } from './execution-table';
import { onEntryGrid } from './execution-timers';
import { CANCELLED_ANSWER, type IsolateAnswer } from './isolate-answers';
import type { IsolateBridge } from './isolate-bridge';
import { reasonOf, type DisposeReason } from './isolate-disposal';
import { MESSAGE_KINDS } from './isolate-messages';
import type { IsolateReadings } from './isolate-readings';
import { keepLine } from './tail-lines';
import type { PendingExecution, VersionContext } from './version-context';

/** What one version brings to an entry: executions to start, and answers to calls of earlier ones with the executions they resume. */
interface EntryPart {
  readonly version: VersionContext;
  readonly batch: PendingExecution[];
  readonly callAnswers: Array<[number, string]>;
  readonly resuming: number[];
  /** The longest time limit among its executions. */
  readonly timeoutMs: number;
}

/** What the entries ask of their isolate. */
export interface EntryHooks {
  /** Ends an execution with its answer. */
  end(id: number, execution: Execution, answer: IsolateAnswer): void;
  dispose(reason: DisposeReason): void;
  /** What a call into the isolate that failed is answered (isolate-disposal.ts, classify). */
  failureOf(error: unknown): IsolateAnswer;
}

/**
 * The entries into the isolate: the executions that arrive in one event-loop turn, and the answers
 * to their bridge calls, enter together, in one call (through the dispatch when they are of several
 * versions: their answers then come back together too); and what comes back out, in
 * the order it was made (isolate-messages.ts). An answer is held until the task that produced it
 * ends: code that runs on after its execution answered (a microtask flood, a loop queued behind the
 * answer) keeps the task, and the answer, from ever standing; its time limit answers instead.
 */
export class IsolateEntries {
  readonly #isolate: ivm.Isolate;
  readonly #timeoutMs: number;
  readonly #versions: ReadonlyMap<string, VersionContext>;
  readonly #executions: ExecutionTable;
  readonly #readings: IsolateReadings;
  readonly #bridge: IsolateBridge;
  readonly #hooks: EntryHooks;
  /** The isolate's dispatch (version-dispatch.ts), once it holds two versions: their executions then enter together. */
  dispatch: ivm.Reference | undefined;
  #flushScheduled = false;
  #probeScheduled = false;
  /**
   * Calls into the isolate not yet settled (batches and probes): while there is one, its thread may
   * be working. Each settles only once the task it started has ended, its microtasks included.
   */
  #calls = 0;
  /** Answers delivered from inside, held until the task that produced them has ended. */
  #held: Array<[number, IsolateAnswer]> = [];

  constructor(
    isolate: ivm.Isolate,
    timeoutMs: number,
    versions: ReadonlyMap<string, VersionContext>,
    executions: ExecutionTable,
    readings: IsolateReadings,
    bridge: IsolateBridge,
    hooks: EntryHooks,
  ) {
    this.#isolate = isolate;
    this.#timeoutMs = timeoutMs;
    this.#versions = versions;
    this.#executions = executions;
    this.#readings = readings;
    this.#bridge = bridge;
    this.#hooks = hooks;
  }

  scheduleFlush(): void {
    if (this.#flushScheduled) return;
    this.#flushScheduled = true;
    // After the turn's other messages: the executions of one version that arrived together, and the
    // answers to its calls, enter at once.
    setImmediate(this.#flush);
  }

  readonly #flush = (): void => {
    this.#flushScheduled = false;
    const parts: EntryPart[] = [];
    for (const version of this.#versions.values()) {
      const callAnswers = version.callAnswers;
      const resuming = version.resuming;
      if (version.pending.length === 0 && callAnswers.length === 0) continue;
      version.callAnswers = [];
      version.resuming = [];
      // Answers alone wait for nothing in a disposed isolate: its executions were all answered.
      if (version.pending.length === 0 && this.#isolate.isDisposed) continue;
      const batch: PendingExecution[] = [];
      for (const entry of version.pending) {
        const execution = this.#executions.get(entry[0]);
        // Let go before it entered: it ends here, or its timer would take the isolate down.
        if (execution && isLetGo(execution.state)) this.#hooks.end(entry[0], execution, CANCELLED_ANSWER);
        else if (execution) batch.push(entry);
      }
      const timeoutMs = version.pendingTimeoutMs || this.#timeoutMs;
      version.pending = [];
      version.pendingTimeoutMs = 0;
      if (batch.length > 0 || callAnswers.length > 0) parts.push({ version, batch, callAnswers, resuming, timeoutMs });
    }
    if (parts.length === 0) return;
    // Without the dispatch (a single version so far), each version is entered apart.
    if (parts.length === 1 || this.dispatch === undefined) for (const part of parts) this.#enter([part]);
    else this.#enter(parts);
  };

  /**
   * Starts batches of executions, each in its version's context, after answering calls of earlier
   * ones (resuming them): one part in its version's own call, several together through the
   * dispatch. A part with neither is a probe: it only waits its turn.
   */
  #enter(parts: EntryPart[]): void {
    if (this.#isolate.isDisposed) {
      // Disposed already (by us, or by isolated-vm past its memory limit): whatever waits to run in
      // it is answered; the reason of our own dispose, if any, stands.
      this.#hooks.dispose('memory');
      return;
    }
    const entered = parts.filter((part) => part.version.runMany !== undefined);
    if (entered.length === 0) return;
    this.#calls++;
    this.#readings.callStarted();
    const batch: PendingExecution[] = [];
    const running: Execution[] = [];
    let timeoutMs = 0;
    for (const part of entered) {
      timeoutMs = Math.max(timeoutMs, part.timeoutMs);
      for (const entry of part.batch) {
        const execution = this.#executions.get(entry[0]);
        if (execution === undefined) continue;
        moveTo(execution, 'running');
        execution.tasks++;
        running.push(execution);
        batch.push(entry);
      }
      for (const id of part.resuming) {
        const execution = this.#executions.get(id);
        if (execution === undefined) continue;
        execution.tasks++;
        running.push(execution);
      }
    }
    // CPU time is read around the entry only when a tail watches one of its executions.
    const cpuFrom = running.some((execution) => execution.tail) ? this.#isolate.cpuTime : undefined;
    const options = { arguments: { copy: true }, timeout: onEntryGrid(timeoutMs) } as const;
    const call =
      entered.length === 1
        ? entered[0]!.version.runMany!.apply(undefined, [entered[0]!.batch, entered[0]!.callAnswers], options)
        : this.dispatch!.apply(undefined, [entered.map((part) => [part.batch, part.callAnswers]), ...entered.map((part) => part.version.runMany!.derefInto())], options);
    call.then(
      () => this.#taskEnded(batch, running, undefined, cpuFrom),
      (error: unknown) => this.#taskEnded(batch, running, this.#hooks.failureOf(error), cpuFrom),
    );
  }

  /**
   * A call into the isolate settled: the task it started has ended, and with it every task before
   * (an isolate runs one at a time). The answers held so far stand, unless that task failed (a
   * limit stopped it): then they, and the batch's executions, get the failure.
   */
  #taskEnded(batch: PendingExecution[], running: Execution[], failed: IsolateAnswer | undefined, cpuFrom: bigint | undefined): void {
    this.#calls--;
    this.#readings.callEnded();
    for (const execution of running) execution.tasks--;
    if (cpuFrom !== undefined && !this.#isolate.isDisposed) shareCpu(running, this.#isolate.cpuTime - cpuFrom);
    const held = this.#held;
    this.#held = [];
    for (const [id, answer] of held) {
      const execution = this.#executions.get(id);
      if (execution) this.#hooks.end(id, execution, failed ?? answer);
    }
    if (failed === undefined) return;
    for (const [id] of batch) {
      const execution = this.#executions.get(id);
      if (execution) this.#hooks.end(id, execution, failed);
    }
    // The limit that stopped the task may have taken the isolate with it (isolated-vm disposes one
    // past its memory limit): the executions left, waiting on nested renders, can never resume.
    if (this.#isolate.isDisposed) this.#hooks.dispose(reasonOf(failed));
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
      if (version) this.#enter([{ version, batch: [], callAnswers: [], resuming: [], timeoutMs: this.#timeoutMs }]);
    });
  }

  /**
   * Messages from inside a version's context (the prelude holds the only reference), in the order
   * they were made (isolate-messages.ts). Only ids of that version's live executions count.
   */
  posted(version: VersionContext, messages: unknown): void {
    if (!Array.isArray(messages)) return;
    for (const message of messages) {
      if (!Array.isArray(message)) continue;
      if (message[0] === MESSAGE_KINDS.answered) this.#delivered(version, message[1], message[2], message[3], message[4]);
      else if (message[0] === MESSAGE_KINDS.call) this.#bridge.called(version, message[1], message[2], message[3], message[4]);
      else if (message[0] === MESSAGE_KINDS.line) this.#logged(version, message[1], message[2], message[3]);
    }
    if (this.#calls === 0) this.#probe();
  }

  /** A console line of a live execution of the version that a tail watches: kept here, whatever ends it. */
  #logged(version: VersionContext, id: unknown, level: unknown, message: unknown): void {
    const execution = typeof id === 'number' ? this.#executions.ownOf(version, id) : undefined;
    if (execution?.lines !== undefined && !isLetGo(execution.state)) keepLine(execution.lines, level, message);
  }

  /** An execution's answer: held until the task that produced it ends. */
  #delivered(version: VersionContext, id: unknown, json: unknown, retire: unknown, tail: unknown): void {
    if (typeof id !== 'number' || typeof json !== 'string') return;
    const execution = this.#executions.ownOf(version, id);
    if (!execution || execution.state === 'answered') return;
    this.#held.push([id, execution.tail && typeof tail === 'string' ? { json, retire: retire === true, tail } : { json, retire: retire === true }]);
    // Answered: a bridge answer arriving before its task ends must not resume it (a loop waiting on a
    // nested render would run after the answer). One let go already keeps its state: it ends with its task.
    if (!isLetGo(execution.state)) moveTo(execution, 'answered');
    this.#bridge.endCalls(execution);
  }
}

/** The CPU time of an entry, shared out equally between the executions that entered together, counted for those a tail watches. */
function shareCpu(running: readonly Execution[], spentNs: bigint): void {
  if (running.length === 0 || spentNs <= 0n) return;
  const share = spentNs / BigInt(running.length);
  for (const execution of running) if (execution.tail) execution.cpuNs += share;
}
