import ivm from 'isolated-vm';
import { COOKIE_BOUNDS } from '../src/sandbox/tenancy-policy';
import { MAX_BRIDGE_PAYLOAD_CHARS, type ComponentCode, type SandboxLimits } from '../src/sandbox/protocol';
import { isLetGo, moveTo } from './execution-state';
import { ExecutionTable, type Execution } from './execution-table';
import { cancelGrace, deadline, linger, within } from './execution-timers';
import { CANCELLED, CANCELLED_ANSWER, MEMORY_FAILURE, RECYCLED_FAILURE, TIMEOUT_FAILURE, type IsolateAnswer } from './isolate-answers';
import { IsolateBridge, type BridgeForwarder } from './isolate-bridge';
import { IsolateDisposal, type DisposeReason } from './isolate-disposal';
import { IsolateEntries } from './isolate-entries';
import { IsolateReadings } from './isolate-readings';
import { tailReport } from './tail-lines';
import { memoryDiscarded, type WatchedIsolate } from './memory-watchdog';
import type { PreludeLimits } from './prelude/install-prelude';
import { buildContext, newVersion, releaseContext, type VersionContext } from './version-context';
import { createDispatch } from './version-dispatch';

const preludeLimits = (limits: SandboxLimits): PreludeLimits => ({
  maxResultChars: limits.maxResultChars,
  maxPayloadChars: MAX_BRIDGE_PAYLOAD_CHARS,
  maxNestedBatch: limits.maxNestedBatch,
  maxNestedRenders: limits.maxNestedRenders,
  cookies: COOKIE_BOUNDS,
});

/**
 * The isolate of ONE component: each of its warm versions is a context of its own in it (its own
 * globals and frozen built-ins, its template and server bundle compiled once), so a warm version
 * costs a context, not an isolate. Versions of different components never share an isolate: a
 * component's failure, time limit or memory blow-up discards only its own versions' sandbox.
 *
 * Ownership is explicit: the isolate knows its live executions (execution-table.ts, each in a state
 * of its life: execution-state.ts) and the version each belongs to, and
 * - only a live execution's bridge calls reach the front, only from its own version's context, and
 *   only for plugins that version declares (isolate-bridge.ts);
 * - an execution that ended (answered, timed out, cancelled) gets no bridge answer that would resume
 *   it, so none of its code runs after its answer;
 * - an isolate that spends CPU time with no live execution is disposed (`checkIdle`).
 * Executions enter together, those of several versions through a dispatch (isolate-entries.ts,
 * version-dispatch.ts); their timers are execution-timers.ts; a breached limit disposes the whole
 * isolate (isolate-disposal.ts says why, and what its executions are answered); the next request
 * builds anew.
 */
export class ComponentIsolate implements WatchedIsolate {
  readonly #isolate: ivm.Isolate;
  readonly #limits: SandboxLimits;
  readonly #versions = new Map<string, VersionContext>();
  readonly #executions = new ExecutionTable();
  readonly #readings: IsolateReadings;
  readonly #bridge: IsolateBridge;
  readonly #entries: IsolateEntries;
  readonly #disposal: IsolateDisposal;
  #dispatching = false;
  /** The tenant whose component it runs. */
  readonly tenant: string;

  /**
   * `onLost` is told, with the versions it was running, when V8 loses control of the isolate;
   * `onCpu`, the CPU time it spent, at each `tellCpu` and when it is disposed.
   */
  constructor(tenant: string, limits: SandboxLimits, forward: BridgeForwarder, onLost: (keys: string[], stillRunning: boolean) => void, onCpu: (ns: bigint) => void) {
    this.tenant = tenant;
    this.#limits = limits;
    this.#isolate = new ivm.Isolate({
      memoryLimit: limits.memoryMb,
      // A single allocation too large for any heap (`new Array(1e8).fill(0)`) fails inside V8 before
      // the memory limit can stop it. isolated-vm then parks the isolate's thread for good; its
      // executions are answered here, and the host process must be recycled to get the memory back.
      onCatastrophicError: () => this.#disposal.lose(),
    });
    this.#readings = new IsolateReadings(this.#isolate, onCpu);
    this.#disposal = new IsolateDisposal(this.#isolate, this.#executions, this.#readings, {
      end: (id, execution, answer) => this.#end(id, execution, answer, 'disposed'),
      lost: onLost,
      versionKeys: () => this.#versions.keys(),
      discardedForMemory: () => memoryDiscarded(tenant),
    });
    this.#bridge = new IsolateBridge(this.#executions, this.#versions, forward, () => this.#entries.scheduleFlush());
    this.#entries = new IsolateEntries(this.#isolate, limits.timeoutMs, this.#versions, this.#executions, this.#readings, this.#bridge, {
      end: (id, execution, answer) => this.#end(id, execution, answer),
      dispose: (reason) => this.dispose(reason),
      failureOf: (error) => this.#disposal.failureOf(error),
    });
  }

  /**
   * Builds a version's context within the time limit: answers undefined when it is ready, or the
   * failure as JSON (a failing component, a breached limit: then the isolate is gone too).
   */
  async addVersion(key: string, code: ComponentCode): Promise<string | undefined> {
    const version = newVersion(key, code.constants.plugins);
    this.#versions.set(key, version);
    if (this.#versions.size === 2) this.#startDispatch();
    let lost: (answer: IsolateAnswer) => void = () => {};
    const whenLost = new Promise<IsolateAnswer>((resolve) => (lost = resolve));
    this.#disposal.building.add(lost);
    // Building runs the version's top-level code: the isolate is at work, as in a call (the memory watchdog watches both).
    this.#readings.workStarted();
    const bridges = {
      bridge: (id: unknown, op: unknown, payload: unknown, signal?: unknown) => this.#bridge.bridge(version, id, op, payload, signal),
      deliver: (messages: unknown) => this.#entries.posted(version, messages),
    };
    const built = buildContext(this.#isolate, version, code, preludeLimits(this.#limits), this.#limits.timeoutMs, bridges)
      .then((failed): IsolateAnswer | undefined => (failed === undefined ? undefined : { json: failed, retire: false }))
      .catch((error: unknown) => this.#disposal.failureOf(error))
      .finally(() => this.#readings.workEnded());
    const answer = await within(Promise.race([built, whenLost]), this.#limits.timeoutMs, () => TIMEOUT_FAILURE);
    this.#disposal.building.delete(lost);
    // Building runs the version's top-level code, with no execution in the isolate: that CPU is not
    // code outliving its answer, so idleness is counted from the end of the build, the release of a
    // failed version's context included.
    const idleFromHere = () => {
      if (!this.#isolate.isDisposed) this.#readings.markIdle();
    };
    if (this.#versions.get(key) !== version) {
      // Dropped from the warm set while it was being built.
      releaseContext(version);
      idleFromHere();
      return (answer ?? RECYCLED_FAILURE).json;
    }
    if (answer === undefined) {
      idleFromHere();
      return undefined;
    }
    // A component whose top-level code breached a limit may still hold the isolate's thread.
    if (answer === TIMEOUT_FAILURE || answer === MEMORY_FAILURE) this.dispose(answer.limit!);
    else this.removeVersion(key);
    idleFromHere();
    return answer.json;
  }

  /** The dispatch, made once the isolate holds a second version: a component run at one version never pays for its context. */
  #startDispatch(): void {
    if (this.#dispatching) return;
    this.#dispatching = true;
    createDispatch(this.#isolate).then(
      (dispatch) => (this.#entries.dispatch = dispatch),
      // A disposed isolate: nothing enters it any more.
      () => {},
    );
  }

  /** Disposed, or set to go once its executions end: a new request must build another. */
  get usable(): boolean {
    return !this.#isolate.isDisposed && !this.#disposal.retiring;
  }

  /** How long calls into the isolate have been under way without a break (0 when none is). */
  busyFor(now: number): number {
    return this.#readings.busyFor(now);
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
  execute(key: string, inputJson: string, id: number, timeoutMs: number, foreign: boolean, finish: Execution['finish'], tail = false): void {
    const version = this.#versions.get(key);
    if (!this.usable || version?.runMany === undefined || version.retired) {
      finish(RECYCLED_FAILURE.json);
      return;
    }
    const ownLimit = timeoutMs >= this.#limits.timeoutMs;
    if (!foreign) this.#readings.ownStarted();
    this.#executions.set(id, {
      version,
      state: 'queued',
      calls: new Set(),
      sleeping: undefined,
      timer: deadline(timeoutMs, ownLimit, () => this.dispose('timeout'), () => this.#expire(id)),
      finish,
      tasks: 0,
      foreign,
      tail,
      cpuNs: 0n,
      lines: tail ? { console: [], cut: false } : undefined,
    });
    version.pending.push([id, inputJson, tail ? 1 : 0]);
    version.pendingTimeoutMs = Math.max(version.pendingTimeoutMs, timeoutMs);
    this.#entries.scheduleFlush();
  }

  /** Ends an execution: it leaves the table (`disposed` when its isolate went), its caller gets its answer unless it was let go. */
  #end(id: number, execution: Execution, answer: IsolateAnswer, to: 'ended' | 'disposed' = 'ended'): void {
    if (this.#executions.get(id) !== execution) return;
    const letGo = isLetGo(execution.state);
    moveTo(execution, to);
    this.#executions.delete(id);
    if (!execution.foreign) this.#readings.ownEnded();
    clearTimeout(execution.timer);
    this.#bridge.forget(id);
    this.#bridge.wake(execution);
    this.#bridge.endCalls(execution);
    // The memory limit spoke, or the isolate holds too much outside its heap: no new execution enters.
    if (answer.retire) this.#disposal.memoryFailed();
    if (this.#executions.size === 0) {
      this.#readings.markIdle();
      if (this.#disposal.retiring) this.dispose('evicted');
    }
    if (execution.version.retired && !this.#executions.runs(execution.version)) this.#release(execution.version);
    if (!letGo) execution.finish(answer.json, execution.lines && tailReport(execution.cpuNs, execution.lines, answer.tail));
  }

  /**
   * The execution's root request was answered. Its time limit is cleared, a plugin call it sleeps
   * on wakes, and its bridge calls end (it never resumes from them); if it is still running code,
   * and nothing else live shares the isolate, the isolate goes after a short grace, so no tenant
   * code outlives its request; with live neighbours it runs on only until its call's own time limit.
   */
  cancel(id: number): void {
    const execution = this.#executions.get(id);
    if (!execution || isLetGo(execution.state)) return;
    const hadCalls = execution.calls.size > 0;
    moveTo(execution, 'cancelled');
    execution.finish(CANCELLED);
    this.#bridge.wake(execution);
    if (hadCalls || execution.tasks === 0) {
      this.#end(id, execution, CANCELLED_ANSWER);
      return;
    }
    clearTimeout(execution.timer);
    // Run for another tenant's request: the code still running for it is stopped by its call's own
    // time limit, never by discarding this tenant's isolate.
    if (execution.foreign) {
      execution.timer = this.#linger(id, execution, CANCELLED_ANSWER);
      return;
    }
    execution.timer = cancelGrace(() => {
      if (this.#executions.get(id) !== execution) return;
      if (this.#executions.allLetGo()) this.dispose('cancelled');
    });
  }

  /**
   * Keeps an execution whose caller was let go until its code stops (its call's own time limit
   * stops it without discarding the isolate); only if it still runs at its own full limit from now
   * does the isolate go.
   */
  #linger(id: number, execution: Execution, answer: IsolateAnswer): NodeJS.Timeout {
    return linger(this.#limits.timeoutMs, () => {
      if (this.#executions.get(id) !== execution) return;
      if (execution.tasks > 0) this.dispose('timeout');
      else this.#end(id, execution, answer);
    });
  }

  /**
   * The execution's deadline passed before its own full limit (its caller's budget was short): its
   * caller gets EXECUTION_TIMEOUT now. Code of it still running stays within its call's own time
   * limit, which stops it without discarding the isolate; only if it still runs at its own full
   * limit does the isolate go.
   */
  #expire(id: number): void {
    const execution = this.#executions.get(id);
    if (!execution || isLetGo(execution.state)) return;
    moveTo(execution, 'expired');
    execution.finish(TIMEOUT_FAILURE.json, execution.lines && tailReport(execution.cpuNs, execution.lines, undefined));
    this.#bridge.wake(execution);
    this.#bridge.endCalls(execution);
    if (execution.tasks === 0) {
      this.#end(id, execution, TIMEOUT_FAILURE);
      return;
    }
    execution.timer = this.#linger(id, execution, TIMEOUT_FAILURE);
  }

  /**
   * True when the isolate spent CPU time with no live execution and no version being built since
   * each of the last two checks (code that outlived its answer): it is disposed then.
   */
  checkIdle(): boolean {
    if (this.#isolate.isDisposed || this.#executions.size > 0 || this.#disposal.building.size > 0) return false;
    const ranWhileIdle = this.#readings.ranWhileIdle();
    if (ranWhileIdle) this.dispose('ran-while-idle');
    return ranWhileIdle;
  }

  growthWhileBusy(rss: number, now: number): number | undefined {
    return this.#readings.growthWhileBusy(rss, now);
  }

  excuse(rss: number): void {
    this.#readings.excuse(rss);
  }

  asleep(): boolean {
    for (const [, execution] of this.#executions) if (execution.sleeping !== undefined && execution.sleeping.size > 0) return true;
    return false;
  }

  cpuNs(): bigint {
    return this.#readings.cpuNs();
  }

  get busyTick(): number {
    return this.#readings.busyTick;
  }

  workedSince(tick: number): boolean {
    return this.#readings.workedSince(tick);
  }

  growthSinceWork(): Promise<number> {
    return this.#readings.growthSinceWork();
  }

  tellCpu(): void {
    this.#readings.tellCpu();
  }

  heapBytes(): Promise<number> {
    return this.#readings.heapBytes();
  }

  /** The version leaves the warm set: no new execution enters it, its context goes once its executions end. */
  removeVersion(key: string): void {
    const version = this.#versions.get(key);
    if (!version) return;
    version.retired = true;
    if (!this.#executions.runs(version)) this.#release(version);
  }

  #release(version: VersionContext): void {
    if (this.#versions.get(version.key) !== version) return;
    this.#versions.delete(version.key);
    releaseContext(version);
    if (this.#versions.size === 0) this.disposeWhenIdle();
  }

  /** Called when the host drops this isolate; running executions finish first. */
  disposeWhenIdle(): void {
    this.#disposal.retire();
    if (this.#executions.size === 0) this.dispose('evicted');
  }

  dispose(reason: DisposeReason): void {
    this.#disposal.dispose(reason);
  }

  stopForMemory(sole: boolean): void {
    this.#disposal.stopForMemory(sole);
  }
}
