import { TesseraError } from '../errors/errors';
import { AdmissionGate } from './admission-gate';
import { ComponentGates } from './component-gates';
import { Quarantine } from './quarantine';
import type { RequestBudget } from './request-budget';
import { SandboxHost, type HostEvents, type HostExecution } from './sandbox-host';
import { NEED_CODE, type BridgeOp, type ComponentCode, type SandboxLimits } from './protocol';

/** How often hosts are pinged; a host silent for HOST_SILENT_MS is killed and replaced. */
const PING_EVERY_MS = 500;
const HOST_SILENT_MS = 5000;
/** A host that has not started within this is killed and replaced. */
const HOST_START_MS = 15_000;
/** A host that ends before it was ready is restarted after this pause, so a broken install does not spin. */
const RESTART_PAUSE_MS = 1000;
/** Executions of one component on its home host past which the next go to another host (a hot component). */
const SPREAD_AT = 4;
/** Lost isolates of one version, within the window, that quarantine it, and for how long. */
const QUARANTINE_AFTER_LOSSES = 3;
const QUARANTINE_WINDOW_MS = 60_000;
const QUARANTINE_MS = 60_000;

/** What the pool reports as it happens (the metrics count them). */
export interface SandboxEvents {
  /** A host died, stopped answering or was recycled, and a new one took its place. */
  hostReplaced(reason: 'exited' | 'silent' | 'overdue' | 'isolate-lost' | 'memory'): void;
  /** V8 lost control of an isolate: its executions were answered, its host is recycled. */
  isolateLost(): void;
}

/** A nested render or plugin call made from inside an isolate, for the front to answer. */
export interface BridgeRequest {
  op: BridgeOp;
  payload: string;
  /** The depth of the execution that made the call. */
  depth: number;
  budget: RequestBudget;
}

/** One execution to run. */
export interface ExecutionJob {
  /** Identifies the component version and its code: `name@version#serverHash`. */
  key: string;
  /** The component's name: executions of one component share its admission gate. */
  component: string;
  plugins: readonly string[];
  loadCode: () => Promise<ComponentCode>;
  /** JSON of the execution input (see workers/isolate-prelude.ts). */
  input: string;
  /** 0 for a request from outside; each nested render adds one. */
  depth: number;
  budget: RequestBudget;
}

/** Figures from the hosts' latest reports. */
export interface SandboxStats {
  /** Hosts started and ready. */
  hosts: number;
  warmIsolates: number;
  heapBytes: number;
  rssBytes: number;
  /** Components reported busy (running code for a while), summed over the hosts. */
  busyComponents: number;
}

export interface SandboxPoolOptions {
  limits: SandboxLimits;
  hosts: number;
  /** Executions from outside that may wait for a slot before the pool answers OVERLOADED. */
  maxQueue: number;
  /** Executions from outside one host runs at once (they mostly wait on isolates and nested renders). */
  concurrentPerHost: number;
  /** Executions from outside of one component running at once; more wait in that component's own queue. */
  maxConcurrentPerComponent: number;
  /** Resident memory past which a host is drained and replaced (memory its isolates hold outside their heaps). */
  hostMemoryBytes: number;
  /** Answers nested renders and plugin calls made from inside isolates. */
  bridge: (request: BridgeRequest) => Promise<string>;
  events: SandboxEvents;
  /** Logs what a host process wrote to its stderr. */
  logHostOutput: (pid: number, text: string) => void;
}

interface PoolExecution extends HostExecution {
  readonly depth: number;
  readonly budget: RequestBudget;
}

const pluginName = (payload: string): string => {
  try {
    const name: unknown = JSON.parse(payload)?.name;
    return typeof name === 'string' ? name : '';
  } catch {
    return '';
  }
};

/** Of two hosts both hot or busy with the component: one not busy with it, else the one running fewer of it. */
const betterFor = (component: string, host: SandboxHost, than: SandboxHost): boolean =>
  host.busyWith(component) !== than.busyWith(component) ? !host.busyWith(component) : host.inflightOf(component) < than.inflightOf(component);

const hashOf = (key: string): number => {
  let hash = 2166136261;
  for (let index = 0; index < key.length; index++) hash = Math.imul(hash ^ key.charCodeAt(index), 16777619);
  return hash >>> 0;
};

/**
 * The front's handle on the sandbox host processes (workers/sandbox-host.ts). It admits executions
 * (gates, queue, each request's budget), routes a version to the host that keeps it warm (to more
 * hosts only when it is hot), answers the hosts' bridge calls, and replaces a host that died, went
 * silent, lost an isolate or outgrew its memory: a host to recycle is drained (no new executions,
 * running ones finish) and killed, while its replacement already starts.
 */
export class SandboxPool {
  readonly #options: SandboxPoolOptions;
  readonly #gate: AdmissionGate;
  readonly #componentGates: ComponentGates;
  readonly #quarantine = new Quarantine(QUARANTINE_AFTER_LOSSES, QUARANTINE_WINDOW_MS, QUARANTINE_MS);
  /** The hosts taking new executions (or starting to), one per slot. */
  readonly #slots: SandboxHost[] = [];
  /** Hosts being drained before they are killed. */
  readonly #draining = new Set<SandboxHost>();
  readonly #waitingForHost = new Set<() => void>();
  readonly #heartbeat: NodeJS.Timeout;
  readonly #hostEvents: HostEvents;
  #closing = false;

  constructor(options: SandboxPoolOptions) {
    this.#options = options;
    const capacity = options.hosts * options.concurrentPerHost;
    // Nested renders may use half as many slots again on top, so nesting keeps working under load.
    this.#gate = new AdmissionGate(capacity, options.maxQueue, Math.ceil(capacity / 2));
    this.#componentGates = new ComponentGates(options.maxConcurrentPerComponent, options.maxQueue);
    this.#hostEvents = {
      ready: () => {
        const waiting = [...this.#waitingForHost];
        this.#waitingForHost.clear();
        for (const wake of waiting) wake();
      },
      bridge: (host, execution, message) => {
        const { depth, budget, plugins } = execution as PoolExecution;
        if (message.op === 'plugin' && !plugins.includes(pluginName(message.payload))) {
          host.answerBridge(message.call, JSON.stringify({ ok: false, message: 'The component does not declare this plugin.' }));
          return;
        }
        this.#options.bridge({ op: message.op, payload: message.payload, depth, budget }).then(
          (answer) => host.answerBridge(message.call, answer),
          (error: unknown) => host.answerBridge(message.call, JSON.stringify({ ok: false, message: error instanceof Error ? error.message : String(error) })),
        );
      },
      isolateLost: (host, keys) => {
        this.#options.events.isolateLost();
        for (const key of keys) this.#quarantine.record(key);
        this.#recycle(host, 'isolate-lost');
      },
      pong: (host, pong) => {
        // A host holding no isolate has nothing to give back: recycling it (a limit set below a fresh
        // host's size) would only start the same again.
        if (pong.rssBytes > this.#options.hostMemoryBytes && pong.warmIsolates > 0) this.#recycle(host, 'memory');
      },
      exited: (host) => this.#exited(host),
      output: (host, text) => this.#options.logHostOutput(host.pid, text),
    };
    for (let slot = 0; slot < options.hosts; slot++) this.#slots.push(this.#startHost());
    this.#heartbeat = setInterval(() => this.#checkHosts(), PING_EVERY_MS).unref();
  }

  /**
   * Runs one execution and answers the isolate's result JSON. An execution from outside passes its
   * component's gate, then the pool's (queueing); a nested one takes a slot at once or fails.
   */
  async execute(job: ExecutionJob): Promise<string> {
    const quarantined = this.#quarantine.secondsLeft(job.key);
    if (quarantined > 0) {
      throw new TesseraError('SANDBOX_QUARANTINED', `This version lost its sandbox ${QUARANTINE_AFTER_LOSSES} times within a minute; it is refused for ${quarantined} s.`);
    }
    if (job.depth > 0) {
      this.#gate.enterNested();
      try {
        return await this.#run(job);
      } finally {
        this.#gate.leave();
      }
    }
    // Awaited only when queued: a free slot is taken without a promise. A request waits for its
    // turn at most as long as its execution may run, then is told to come back (OVERLOADED).
    const waitUntil = performance.now() + this.#options.limits.timeoutMs;
    const componentTurn = this.#componentGates.enter(job.component, this.#options.limits.timeoutMs);
    if (componentTurn) await componentTurn;
    try {
      const poolTurn = this.#gate.enter(Math.max(1, waitUntil - performance.now()));
      if (poolTurn) await poolTurn;
    } catch (error) {
      this.#componentGates.leave(job.component);
      throw error;
    }
    try {
      return await this.#run(job);
    } finally {
      this.#gate.leave();
      this.#componentGates.leave(job.component);
    }
  }

  async #run(job: ExecutionJob): Promise<string> {
    const timeoutMs = job.budget.charge();
    const host = this.#pick(job.component) ?? (await this.#aHost(timeoutMs));
    const answer = await this.#runOn(host, job, undefined, timeoutMs);
    if (answer !== NEED_CODE) return answer;
    const code = await job.loadCode();
    // The request may have been answered while the code was read.
    job.budget.assertOpen();
    const again = await this.#runOn(host.state === 'ready' ? host : (this.#pick(job.component) ?? (await this.#aHost(timeoutMs))), job, code, timeoutMs);
    if (again === NEED_CODE) throw new Error('A sandbox host asked twice for the same code.');
    return again;
  }

  #runOn(host: SandboxHost, job: ExecutionJob, code: ComponentCode | undefined, timeoutMs: number): Promise<string> {
    return new Promise((resolve, reject) => {
      const settled = () => {
        untrack();
        if (host.state === 'draining' && host.inflight === 0) host.kill();
      };
      const execution: PoolExecution = {
        component: job.component,
        plugins: job.plugins,
        depth: job.depth,
        budget: job.budget,
        resolve: (answer) => {
          settled();
          resolve(answer);
        },
        reject: (error) => {
          settled();
          reject(error);
        },
      };
      const id = host.execute(job.component, job.key, code, job.input, timeoutMs, execution);
      const untrack = job.budget.track(() => host.cancel(id, new TesseraError('EXECUTION_CANCELLED')));
    });
  }

  /**
   * The ready host for a component: its home host, which keeps all its warm versions (contexts of
   * the component's isolates there), unless the component is hot there or its isolate there is busy
   * running code (a loop its calm requests would wait behind until the time limit); then the next
   * host free of both, else the one least taken by it.
   */
  #pick(component: string): SandboxHost | undefined {
    const slots = this.#slots;
    const home = hashOf(component) % slots.length;
    let best: SandboxHost | undefined;
    for (let step = 0; step < slots.length; step++) {
      const host = slots[(home + step) % slots.length]!;
      if (host.state !== 'ready') continue;
      if (!host.busyWith(component) && host.inflightOf(component) < SPREAD_AT) return host;
      if (best === undefined || betterFor(component, host, best)) best = host;
    }
    return best;
  }

  /** Waits for any host to be ready (all are starting, after crashes or recycles). */
  #aHost(timeoutMs: number): Promise<SandboxHost> {
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        this.#waitingForHost.delete(wake);
        reject(new TesseraError('SANDBOX_CRASHED', 'No sandbox host became ready in time; retry the request.'));
      }, timeoutMs);
      const wake = () => {
        const host = this.#slots.find((candidate) => candidate.state === 'ready');
        if (!host) {
          this.#waitingForHost.add(wake);
          return;
        }
        clearTimeout(timer);
        resolve(host);
      };
      this.#waitingForHost.add(wake);
    });
  }

  #startHost(): SandboxHost {
    return new SandboxHost(this.#options.limits, this.#hostEvents);
  }

  /** Drains the host and kills it once its executions have ended; a new host takes its slot now. */
  #recycle(host: SandboxHost, reason: 'overdue' | 'isolate-lost' | 'memory'): void {
    const slot = this.#slots.indexOf(host);
    if (slot === -1 || this.#closing) return;
    host.state = 'draining';
    this.#draining.add(host);
    this.#slots[slot] = this.#startHost();
    this.#options.events.hostReplaced(reason);
    if (host.inflight === 0) host.kill();
    // Executions bound to end by their time limit; past it (and a margin) the host goes anyway.
    else setTimeout(() => host.kill(), this.#options.limits.timeoutMs + 1000).unref();
  }

  #exited(host: SandboxHost): void {
    this.#draining.delete(host);
    const slot = this.#slots.indexOf(host);
    if (slot === -1 || this.#closing) return;
    this.#options.events.hostReplaced('exited');
    const replace = () => {
      if (!this.#closing && this.#slots[slot] === host) this.#slots[slot] = this.#startHost();
    };
    if (!host.wasReady) setTimeout(replace, RESTART_PAUSE_MS).unref();
    else replace();
  }

  #checkHosts(): void {
    const now = performance.now();
    for (const host of [...this.#slots, ...this.#draining]) {
      if (host.state === 'gone') continue;
      if (now - host.lastPongAt > (host.state === 'starting' ? HOST_START_MS : HOST_SILENT_MS)) {
        if (this.#slots.includes(host)) this.#options.events.hostReplaced('silent');
        host.kill();
        continue;
      }
      host.ping();
      // A host that lost an execution is recycled: whatever lost it may hold more.
      if (host.answerOverdue(now)) this.#recycle(host, 'overdue');
    }
  }

  /** The number of hosts the pool keeps (the configured `sandboxHosts`). */
  get size(): number {
    return this.#slots.length;
  }

  /** The process ids of the hosts taking executions, for operators' tooling. */
  hostProcessIds(): number[] {
    return this.#slots.map((host) => host.pid);
  }

  get queueSize(): number {
    return this.#componentGates.queued + this.#gate.queued;
  }

  stats(): SandboxStats {
    const stats: SandboxStats = { hosts: 0, warmIsolates: 0, heapBytes: 0, rssBytes: 0, busyComponents: 0 };
    for (const host of [...this.#slots, ...this.#draining]) {
      if (host.state === 'ready') stats.hosts++;
      if (host.state === 'gone' || !host.lastPong) continue;
      stats.warmIsolates += host.lastPong.warmIsolates;
      stats.heapBytes += host.lastPong.heapBytes;
      stats.rssBytes += host.lastPong.rssBytes;
      stats.busyComponents += host.busyCount;
    }
    return stats;
  }

  /** Stops every host at once. */
  async close(): Promise<void> {
    this.#closing = true;
    clearInterval(this.#heartbeat);
    const hosts = [...this.#slots, ...this.#draining];
    for (const host of hosts) host.kill();
    await Promise.all(hosts.map((host) => host.ended));
  }
}
