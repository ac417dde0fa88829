import { TesseraError } from '../errors/errors';
import type { HostLink } from './host-link';
import { IdTable } from './id-table';
import { SentPlans, type PlannedLease } from './leased-plans';
import { Outbox } from './outbox';
import type { ComponentOwner } from './component-owner';
import type { BridgeCallMessage, ComponentCode, ExecuteMessage, FrontMessage, HostMessage, NestedRun, PongMessage, TailReport } from './protocol';

/**
 * A turn's executions of one component leave in frames of this many (outbox.ts): the host starts on
 * them while the front reads the turn's other requests.
 */
const FRAME_SIZE = 16;

/** A draining host did not run the execution: it is to run on another host. */
export const ELSEWHERE = Symbol('elsewhere');

/** A host's life, as the pool sees it. Only a `ready` host is given new executions. */
export type HostState = 'starting' | 'ready' | 'draining' | 'gone';

/** One execution the host runs, as the front keeps it until its answer. */
export interface HostExecution {
  /** The component: a host keeps a component's versions together, so executions are counted by component. */
  readonly component: string;
  /** The tenant that published the version (what a loss of it counts against). */
  readonly tenant: string;
  /** The plugins its component declares: the only plugin calls it may make. */
  readonly plugins: readonly string[];
  /** The isolate's result JSON, NEED_CODE, or ELSEWHERE; with the nested renders the host ran itself under its lease, and what a tail gets of it. */
  readonly resolve: (answer: string | typeof ELSEWHERE, nested?: NestedRun[], tail?: TailReport) => void;
  readonly reject: (error: TesseraError) => void;
}

export interface HostEvents {
  ready(host: SandboxHost): void;
  /** A bridge call of one of this host's executions (checked to be one). */
  bridge(host: SandboxHost, execution: HostExecution, message: BridgeCallMessage): void;
  /** V8 lost an isolate running these versions of `tenant`'s; `stillRunning`: its thread still works in a built-in. */
  isolateLost(host: SandboxHost, tenant: string, keys: string[], stillRunning: boolean): void;
  /** The host drains (it is being replaced): this front releases it once its executions there are answered. */
  draining(host: SandboxHost): void;
  /** After `drain()`: every front has released the host. */
  drained(host: SandboxHost): void;
  pong(host: SandboxHost, pong: PongMessage): void;
  /** The process ended; its executions were answered SANDBOX_CRASHED. */
  exited(host: SandboxHost): void;
  /** What the process wrote to its stderr (V8's report of an isolate it lost, a crash's stack). */
  output(host: SandboxHost, text: string): void;
}

const crashed = (message: string) => new TesseraError('SANDBOX_CRASHED', message);

/**
 * A host bounds every execution by its time limit; one whose answer is this late was lost by the
 * host (a fault of the host, not of tenant code), and is answered by the front instead.
 */
const OVERDUE_MARGIN_MS = 2000;

/** An execution the host was sent, and when its answer is overdue (performance.now()). */
interface SentExecution {
  readonly execution: HostExecution;
  readonly overdueAt: number;
}

/** A front's handle on one sandbox host process (workers/sandbox-host.ts). */
export class SandboxHost {
  state: HostState = 'starting';
  /** It reached `ready` once: a host that dies before is restarted only after a pause. */
  wasReady = false;
  /** The last figures the host reported, and when (performance.now()). */
  lastPong: PongMessage | undefined;
  lastPongAt = performance.now();
  readonly #link: HostLink;
  readonly #outbox: Outbox<FrontMessage>;
  readonly #events: HostEvents;
  readonly #executions = new IdTable<SentExecution>();
  /** Executions per component, to tell a hot component from a warm one. */
  readonly #perComponent = new Map<string, number>();
  /** The plans this connection was sent: later leases name them by id. */
  readonly #plans = new SentPlans();
  /** The components whose isolate the host last reported busy (usually none). */
  #busy: string[] = [];
  #nextId = 1;
  #nextPing = 1;

  /** Over `link`: the process this front started (forkHost), or a connection to another front's host (connectHost). */
  constructor(link: HostLink, events: HostEvents) {
    this.#events = events;
    this.#link = link;
    this.#outbox = new Outbox((batch) => link.send(batch), FRAME_SIZE);
    link.start({
      batch: (batch) => {
        for (const message of batch) this.#receive(message);
      },
      output: (text) => this.#events.output(this, text),
      ended: () => this.#exited(),
    });
  }

  #receive(message: HostMessage): void {
    switch (message.t) {
      case 'result': {
        const execution = this.#executions.get(message.id)?.execution;
        if (execution) {
          this.#forget(message.id, execution);
          execution.resolve(message.answer, message.nested, message.tail);
        }
        break;
      }
      case 'elsewhere': {
        // A host that answers it drains: it takes no more executions from this front.
        if (this.state === 'ready') this.state = 'draining';
        const execution = this.#executions.get(message.id)?.execution;
        if (execution) {
          this.#forget(message.id, execution);
          execution.resolve(ELSEWHERE);
        }
        break;
      }
      case 'bridge': {
        const execution = this.#executions.get(message.execution)?.execution;
        if (execution) this.#events.bridge(this, execution, message);
        else this.answerBridge(message.call, '{"ok":false,"ended":true}');
        break;
      }
      case 'pong':
        this.lastPong = message;
        this.lastPongAt = performance.now();
        this.#events.pong(this, message);
        break;
      case 'busy':
        this.#busy = message.components;
        break;
      case 'isolate-lost':
        this.#events.isolateLost(this, message.tenant, message.keys, message.stillRunning === true);
        break;
      case 'draining':
        if (this.state === 'ready' || this.state === 'starting') this.state = 'draining';
        this.#events.draining(this);
        break;
      case 'drained':
        this.#events.drained(this);
        break;
      case 'ready':
        if (this.state === 'starting') this.state = 'ready';
        this.wasReady = true;
        this.lastPongAt = performance.now();
        this.#events.ready(this);
        break;
    }
  }

  /** Sends one execution; answers its id (to cancel it). */
  execute(
    component: string,
    key: string,
    code: ComponentCode | undefined,
    input: string,
    timeoutMs: number,
    foreign: boolean,
    execution: HostExecution,
    lease?: PlannedLease,
    tail = false,
  ): number {
    const id = this.#nextId++;
    this.#executions.set(id, { execution, overdueAt: performance.now() + timeoutMs + OVERDUE_MARGIN_MS });
    this.#perComponent.set(component, (this.#perComponent.get(component) ?? 0) + 1);
    const message: ExecuteMessage = { t: 'execute', id, key, component, code, input, timeoutMs };
    if (foreign) message.foreign = true;
    if (lease) message.lease = this.#plans.lease(lease);
    if (tail) message.tail = true;
    this.#outbox.post(message, component);
    return id;
  }

  /** Its root request was answered: the host stops it, and its answer is no longer awaited. */
  cancel(id: number, reason: TesseraError): void {
    const execution = this.#executions.get(id)?.execution;
    if (!execution) return;
    this.#forget(id, execution);
    this.#outbox.post({ t: 'cancel', id });
    execution.reject(reason);
  }

  /**
   * Answers EXECUTION_TIMEOUT for the executions the host should have answered by now; answers
   * whose they were (the host is not to be trusted with more when there are any).
   */
  answerOverdue(now: number): ComponentOwner[] {
    const owners: ComponentOwner[] = [];
    for (const [id, { execution, overdueAt }] of this.#executions) {
      if (overdueAt > now) continue;
      this.#forget(id, execution);
      this.#outbox.post({ t: 'cancel', id });
      execution.reject(new TesseraError('EXECUTION_TIMEOUT'));
      owners.push({ component: execution.component, tenant: execution.tenant });
    }
    return owners;
  }

  answerBridge(call: number, answer: string): void {
    this.#outbox.post({ t: 'bridge-answer', call, answer });
  }

  ping(): void {
    this.#outbox.post({ t: 'ping', id: this.#nextPing++ });
  }

  /** Tells the host a version left the catalog: the leases running there no longer run it. */
  revoke(name: string, version: string): void {
    this.#outbox.post({ t: 'revoke', name, version });
  }

  /** Tells the host it is being replaced; it answers `drained` once every front has released it. */
  drain(): void {
    this.#outbox.post({ t: 'drain' });
  }

  /** A draining host: this front closes its connection, once none of its executions is left there. */
  releaseIfIdle(): void {
    if (this.state === 'draining' && this.#executions.size === 0) this.#link.release();
  }

  get pid(): number {
    return this.#link.pid;
  }

  /** The host's socket, where every front thread connects. */
  get address(): string {
    return this.#link.address;
  }

  get inflight(): number {
    return this.#executions.size;
  }

  inflightOf(component: string): number {
    return this.#perComponent.get(component) ?? 0;
  }

  /** Whether the host last reported the component's isolate busy (running code for a while). */
  busyWith(component: string): boolean {
    return this.#busy.includes(component);
  }

  /** How many components the host last reported busy. */
  get busyCount(): number {
    return this.#busy.length;
  }

  /**
   * Ends the process at once (a host this front started) or this front's connection to it (another
   * front's host); either way its executions here are answered SANDBOX_CRASHED.
   */
  kill(): void {
    this.#link.end();
  }

  /** Resolves when the process, or the connection, has ended. */
  get ended(): Promise<void> {
    return this.#link.ended;
  }

  #forget(id: number, execution: HostExecution): void {
    this.#executions.delete(id);
    const count = this.#perComponent.get(execution.component)! - 1;
    if (count === 0) this.#perComponent.delete(execution.component);
    else this.#perComponent.set(execution.component, count);
  }

  #exited(): void {
    this.state = 'gone';
    const executions = [...this.#executions.values()].map((sent) => sent.execution);
    this.#executions.clear();
    this.#perComponent.clear();
    for (const execution of executions) execution.reject(crashed('The sandbox running the component stopped unexpectedly; retry the request.'));
    this.#events.exited(this);
  }
}
