import { IdTable } from '../src/sandbox/id-table';
import { MAX_BRIDGE_PAYLOAD_CHARS, type BridgeOp } from '../src/sandbox/protocol';
import { isLetGo, isLive, moveTo } from './execution-state';
import type { Execution, ExecutionTable } from './execution-table';
import { ENDED } from './isolate-answers';
import type { VersionContext } from './version-context';

/** Sends a bridge call of one of this isolate's live executions to the front; answers its JSON. */
export type BridgeForwarder = (execution: number, op: BridgeOp, payload: string) => Promise<string>;

const MALFORMED = JSON.stringify({ ok: false, code: 'GENERIC_ERROR', message: 'A bridge call was malformed.' });

/** Raises a flag an isolate's thread sleeps on (`Atomics.wait` in the prelude), waking it. */
function raiseFlag(signal: SharedArrayBuffer): void {
  const flag = new Int32Array(signal);
  Atomics.store(flag, 0, 1);
  Atomics.notify(flag, 0);
}

/**
 * The isolate's side of the bridges (workers/prelude/host-bridges.ts is the other): nested renders
 * come as messages and are answered with the version's next entry; plugin calls are synchronous, the
 * calling thread asleep on a flag until their answer is in. Only a live execution's calls reach the
 * front, only from its own version's context, and only for plugins that version declares; an
 * execution that ended gets ENDED, which resumes nothing.
 */
export class IsolateBridge {
  readonly #executions: ExecutionTable;
  readonly #versions: ReadonlyMap<string, VersionContext>;
  readonly #forward: BridgeForwarder;
  /** Asks for the isolate's next entry, which brings the answers in. */
  readonly #enterSoon: () => void;
  /** Answers of synchronous bridge calls (plugins), kept until the sleeping execution fetches them. */
  readonly #syncAnswers = new IdTable<string>();

  constructor(executions: ExecutionTable, versions: ReadonlyMap<string, VersionContext>, forward: BridgeForwarder, enterSoon: () => void) {
    this.#executions = executions;
    this.#versions = versions;
    this.#forward = forward;
    this.#enterSoon = enterSoon;
  }

  /**
   * A nested render asked for by an execution: sent to the front, unless refused. Its answer (ENDED
   * once the execution has ended) enters the isolate with the version's next entry.
   */
  called(version: VersionContext, id: unknown, callId: unknown, op: unknown, payload: unknown): void {
    if (typeof callId !== 'number') return;
    const answerCall = (answer: string) => {
      if (this.#versions.get(version.key) !== version) return; // its context is gone
      version.callAnswers.push([callId, answer]);
      if (answer !== ENDED && typeof id === 'number') version.resuming.push(id);
      this.#enterSoon();
    };
    if (typeof id !== 'number' || typeof payload !== 'string' || op !== 'render') {
      answerCall(MALFORMED);
      return;
    }
    const own = this.#executions.ownOf(version, id);
    const refusal = own === undefined || !isLive(own.state) ? ENDED : this.#refusal(version, op, payload);
    if (refusal !== undefined) answerCall(refusal);
    else void this.#call(id, own!, op, payload).then(answerCall);
  }

  /**
   * Called from inside a version's context (the prelude holds the only reference) for synchronous
   * calls (plugins). A call brings `signal`: its answer is kept, the flag raised, and the execution,
   * asleep on that flag, fetches the answer with the `plugin-answer` call.
   */
  bridge(version: VersionContext, id: unknown, op: unknown, payload: unknown, signal?: unknown): string | undefined {
    if (typeof id !== 'number' || typeof payload !== 'string') return MALFORMED;
    const own = this.#executions.ownOf(version, id);
    if (op === 'plugin-answer') {
      const answer = own && !isLetGo(own.state) ? this.#syncAnswers.get(id) : undefined;
      if (own) this.#syncAnswers.delete(id);
      return answer ?? ENDED;
    }
    if (!(signal instanceof SharedArrayBuffer)) return MALFORMED;
    const refusal = own === undefined || !isLive(own.state) ? ENDED : this.#refusal(version, op, payload);
    const raise = () => raiseFlag(signal);
    if (refusal !== undefined) {
      // A refused call wakes at once; one of an ended execution finds nothing to fetch and gets ENDED.
      if (own !== undefined) this.#syncAnswers.set(id, refusal);
      raise();
    } else {
      // Woken by the answer, or at once when the execution ends or is cancelled first (wake).
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
    if (op !== 'render' && op !== 'plugin') return JSON.stringify({ ok: false, code: 'GENERIC_ERROR', message: 'Unknown bridge operation.' });
    if (payload.length > MAX_BRIDGE_PAYLOAD_CHARS) {
      return JSON.stringify({ ok: false, message: `The arguments of a ${op === 'render' ? 'nested render' : 'plugin call'} are over ${MAX_BRIDGE_PAYLOAD_CHARS} characters.` });
    }
    if (op === 'plugin') {
      const name: unknown = JSON.parse(payload)?.name;
      if (typeof name !== 'string' || !version.plugins.includes(name)) return JSON.stringify({ ok: false, message: `Plugin "${String(name)}" is not declared by the component.` });
    }
    return undefined;
  }

  /**
   * Sends a call to the front; answers its answer, or ENDED once the execution ends first. The
   * execution waits while it has calls out, and runs again once the last is answered.
   */
  #call(id: number, execution: Execution, op: BridgeOp, payload: string): Promise<string> {
    return new Promise((resolve) => {
      if (execution.calls.size === 0) moveTo(execution, 'waiting');
      execution.calls.add(resolve);
      void this.#forward(id, op, payload).then((answer) => {
        if (!execution.calls.delete(resolve)) return;
        if (execution.calls.size === 0) moveTo(execution, 'running');
        resolve(answer);
      });
    });
  }

  /** Ends the execution's calls: each is answered ENDED, which resumes nothing. */
  endCalls(execution: Execution): void {
    for (const resolve of execution.calls) resolve(ENDED);
    execution.calls.clear();
  }

  /** Wakes the plugin calls the execution sleeps on: each finds its answer gone and gets ENDED. */
  wake(execution: Execution): void {
    if (execution.sleeping === undefined) return;
    for (const signal of execution.sleeping) raiseFlag(signal);
    execution.sleeping.clear();
  }

  /** The execution ended: an answer kept for it is nobody's. */
  forget(id: number): void {
    this.#syncAnswers.delete(id);
  }
}
