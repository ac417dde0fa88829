import path from 'node:path';
import { TesseraError } from '../errors/errors';
import { ComponentGates } from './component-gates';
import { Quarantine, type QuarantineScope } from './quarantine';
import { TENANCY_POLICY } from './tenancy-policy';
import { TenantShares } from './tenant-shares';
import type { RequestBudget } from './request-budget';
import { connectHost, forkHost } from './host-link';
import { ELSEWHERE, SandboxHost, type HostEvents, type HostExecution } from './sandbox-host';
import type { PlannedLease } from './leased-plans';
import { NEED_CODE, type BridgeOp, type ComponentCode, type LeaseEnd, type NestedPlan, type NestedRun, type SandboxLimits } from './protocol';

/** How often hosts are pinged; a host silent for HOST_SILENT_MS is killed and replaced. */
const PING_EVERY_MS = 500;
const HOST_SILENT_MS = 5000;
/** A host that has not started within this is killed and replaced. */
const HOST_START_MS = 15_000;
/** A host that ends before it was ready is restarted after this pause, so a broken install does not spin. */
const RESTART_PAUSE_MS = 1000;
/**
 * Executions of one component on its home host past which the next go to another host (a hot
 * component). Kept on one host, a component's executions share frames and calls into its isolate,
 * and fewer hosts wake: at 32 rather than 4, rendered GETs, batches and nested renders took 8–12 %
 * less CPU each (bench/FINDINGS.md); a component whose isolate is busy without a break spreads earlier.
 */
const SPREAD_AT = 32;
/** Losses of one component, or of one tenant's components together, that refuse them for a while (tenancy-policy.ts). */
const QUARANTINE = {
  componentLosses: TENANCY_POLICY.quarantineComponentLosses.value,
  tenantLosses: TENANCY_POLICY.quarantineTenantLosses.value,
  windowMs: TENANCY_POLICY.quarantineWindowMs.value,
  forMs: TENANCY_POLICY.quarantineForMs.value,
};

/** What the pool reports as it happens (the metrics count them). */
export interface SandboxEvents {
  /** A host died, stopped answering or was recycled, and a new one took its place. */
  hostReplaced(reason: 'exited' | 'silent' | 'overdue' | 'isolate-lost' | 'memory'): void;
  /** V8 lost control of an isolate of this tenant's: its executions were answered, its host is recycled. */
  isolateLost(tenant: string): void;
  /** A component, or every component of a tenant, is refused for a while after repeated losses. */
  quarantined(tenant: string, scope: QuarantineScope): void;
  /** A tenant's isolates spent this CPU time (reported by the hosts every half second). */
  cpuSpent(tenant: string, seconds: number): void;
}

/** A nested render or plugin call made from inside an isolate, for the front to answer. */
export interface BridgeRequest {
  op: BridgeOp;
  payload: string;
  /** The depth of the execution that made the call. */
  depth: number;
  budget: RequestBudget;
  /** The execution that made the call (unknown for a child its host ran under a lease): its sandbox key, and its host. */
  caller?: Caller;
  /** The tenant of the component whose code made the call. */
  callerTenant: string;
}

/** An execution that asked for a nested render: its children learn from it, and run on its host first. */
export interface Caller {
  readonly key: string;
  readonly host: SandboxHost;
}

/** A child an execution's component asked for before, resolved by the front: what a lease of it needs. */
export interface LeasableChild {
  plan: NestedPlan;
  /** The tenant that published it. */
  tenant: string;
}

/** One execution to run. */
export interface ExecutionJob {
  /** Identifies the component version and its code: `name@version#serverHash`. */
  key: string;
  /** The component's name: executions of one component share its admission gate. */
  component: string;
  /** The tenant that published the version (its failures and quarantines count against it). */
  tenant: string;
  plugins: readonly string[];
  loadCode: () => Promise<ComponentCode>;
  /** JSON of the execution input (see workers/isolate-prelude.ts). */
  input: string;
  /** 0 for a request from outside; each nested render adds one. */
  depth: number;
  budget: RequestBudget;
  /** Children its component asked for before: those admitted now go with it as a lease, for its host to run itself. */
  children?: readonly LeasableChild[];
  /** Told of each nested render its host ran itself under the lease (`child`: its index in `children`). */
  ranNested?: (child: number, run: NestedRun) => void;
  /** A nested render's caller: its host is tried first, so the child is warm there for the caller's next leases. */
  caller?: Caller;
  /** Set once charged when its request had less time left than the execution's own limit: a timeout is then the request's, not the component's. */
  cutShort?: boolean;
}

/** A lease granted to one execution: which of its children, and the lease to send with it (each host connection writes its own: leased-plans.ts). */
interface GrantedLease {
  /** Indexes in the job's `children`, in the order of the lease's plans. */
  readonly children: number[];
  readonly lease: PlannedLease;
  /** What the host ran under it, as reported with the execution's result. */
  runs?: NestedRun[];
  /** The plans it ran (their executions stay counted). */
  readonly used: Set<number>;
  /** The plans given back when the lease ended before its execution (protocol.ts, LeaseEnd). */
  readonly returned: Set<number>;
  /** Ended before its execution: what it did not use given back, what it brought so far counted. */
  ended: boolean;
  /** Characters of its children's answers counted when it ended. */
  counted: number;
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

/** A host another front started, as it announces it to the registry's other front threads. */
export interface SharedHost {
  slot: number;
  address: string;
  pid: number;
}

/** Why a pool asks the owner of a host to replace it. */
export type RecycleReason = 'overdue' | 'isolate-lost' | 'memory';

/**
 * Where a pool's hosts come from. The owner's pool starts them, each listening on a socket in
 * `socketFolder`, and announces each once ready (to the registry's other front threads); a pool of
 * another front thread (a guest) connects to the hosts announced to it, and asks their owner to
 * replace one that lost an execution.
 */
export type HostSharing =
  | { role: 'owner'; socketFolder: string; announce(host: SharedHost): void }
  | { role: 'guest'; hosts: SharedHost[]; recycle(pid: number, reason: RecycleReason): void };

export interface SandboxPoolOptions {
  limits: SandboxLimits;
  hosts: number;
  sharing: HostSharing;
  /** With several front threads, this thread's own host (its index): where its hot components go first. */
  ownSlot?: number;
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
  /** A tenant's weight in the fair share of the sandbox's slots (1 when it has none configured). */
  weightOf: (tenant: string) => number;
  /** The tenant of a published component, for a loss reported by name only (a host's report). */
  tenantOf: (component: string) => string;
  events: SandboxEvents;
  /** Logs what a host process wrote to its stderr. */
  logHostOutput: (pid: number, text: string) => void;
}

interface PoolExecution extends HostExecution {
  readonly key: string;
  readonly depth: number;
  readonly budget: RequestBudget;
  /** The tenant of its component, the tenant paying for it, its children, and the lease it holds of them. */
  readonly tenant: string;
  readonly payer: string;
  readonly children: readonly LeasableChild[] | undefined;
  readonly granted: GrantedLease | undefined;
}

/** The component a sandbox key (`name@version#serverHash`) belongs to; a component name holds no `@`. */
const componentOfKey = (key: string): string => key.slice(0, key.indexOf('@'));

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

/** A host's socket: a short name, since a socket path is limited to about a hundred bytes (a named pipe on Windows). */
const socketAddress = (folder: string, serial: number): string =>
  process.platform === 'win32' ? `\\\\.\\pipe\\${path.basename(folder)}-h${serial}` : path.join(folder, `h${serial}.sock`);

/** The slot of a component's home host among `slots`: the same for every front thread (FNV-1a of its name). */
export function homeSlot(component: string, slots: number): number {
  let hash = 2166136261;
  for (let index = 0; index < component.length; index++) hash = Math.imul(hash ^ component.charCodeAt(index), 16777619);
  return (hash >>> 0) % slots;
}

/**
 * The front's handle on the sandbox host processes (workers/sandbox-host.ts). It admits executions
 * (gates, queue, each request's budget), routes a version to the host that keeps it warm (to more
 * hosts only when it is hot), answers the hosts' bridge calls, and replaces a host that died, went
 * silent, lost an isolate or outgrew its memory: a host to recycle is drained (no new executions,
 * running ones finish) and killed, while its replacement already starts.
 */
export class SandboxPool {
  readonly #options: SandboxPoolOptions;
  readonly #shares: TenantShares;
  readonly #componentGates: ComponentGates;
  readonly #quarantine = new Quarantine(QUARANTINE);
  /**
   * The hosts taking new executions (or starting to), one per slot. A guest's may have a hole while
   * a slot's host is not announced yet (hosts become ready in any order).
   */
  readonly #slots: Array<SandboxHost | undefined> = [];
  /** Hosts being drained before they are killed. */
  readonly #draining = new Set<SandboxHost>();
  readonly #waitingForHost = new Set<() => void>();
  readonly #heartbeat: NodeJS.Timeout;
  readonly #hostEvents: HostEvents;
  #closing = false;
  #hostsStarted = 0;

  constructor(options: SandboxPoolOptions) {
    this.#options = options;
    const capacity = options.hosts * options.concurrentPerHost;
    // Nested renders may borrow slots on top, so nesting keeps working under load.
    this.#shares = new TenantShares(capacity, options.maxQueue, Math.ceil(capacity * TENANCY_POLICY.nestedHeadroom.value), options.weightOf);
    this.#componentGates = new ComponentGates(options.maxConcurrentPerComponent, options.maxQueue);
    this.#hostEvents = {
      ready: (host) => {
        const sharing = this.#options.sharing;
        const slot = this.#slots.indexOf(host);
        if (sharing.role === 'owner' && slot !== -1) sharing.announce({ slot, address: host.address, pid: host.pid });
        const waiting = [...this.#waitingForHost];
        this.#waitingForHost.clear();
        for (const wake of waiting) wake();
      },
      bridge: (host, execution, message) => {
        const { key, depth, budget, plugins } = execution as PoolExecution;
        // A leased child never calls a plugin: a component that declares any is never leased.
        if (message.op === 'plugin' && (message.deeper !== undefined || !plugins.includes(pluginName(message.payload)))) {
          host.answerBridge(message.call, JSON.stringify({ ok: false, message: 'The component does not declare this plugin.' }));
          return;
        }
        if (message.leaseEnd !== undefined && message.deeper === undefined) this.#leaseEnded(execution as PoolExecution, message.leaseEnd);
        // A child run under a lease is of its parent's tenant (the payer's): its calls are that tenant's too.
        const callerTenant = (execution as PoolExecution).tenant;
        const request: BridgeRequest =
          message.deeper === undefined
            ? { op: message.op, payload: message.payload, depth, budget, caller: { key, host }, callerTenant }
            : { op: message.op, payload: message.payload, depth: depth + 1, budget, callerTenant };
        this.#options.bridge(request).then(
          (answer) => host.answerBridge(message.call, answer),
          (error: unknown) => host.answerBridge(message.call, JSON.stringify({ ok: false, message: error instanceof Error ? error.message : String(error) })),
        );
      },
      isolateLost: (host, keys) => {
        // Every front hears of it (each keeps its own quarantine); the host's owner counts it and recycles the host.
        const components = new Set(keys.map(componentOfKey));
        for (const component of components) this.#recordLoss(component);
        if (this.#options.sharing.role === 'guest') return;
        for (const component of components) this.#options.events.isolateLost(this.#options.tenantOf(component));
        this.#recycle(host, 'isolate-lost');
      },
      draining: (host) => {
        if (host.state !== 'draining') return;
        this.#draining.add(host);
        host.releaseIfIdle();
      },
      drained: (host) => host.kill(),
      pong: (host, pong) => {
        for (const [component, seconds] of pong.cpu) this.#options.events.cpuSpent(this.#options.tenantOf(component), seconds);
        // A host holding no isolate has nothing to give back: recycling it (a limit set below a fresh
        // host's size) would only start the same again.
        if (pong.rssBytes > this.#options.hostMemoryBytes && pong.warmIsolates > 0) {
          // It counts against a component only when that one holds more than an isolate's limit there:
          // a host that grew outside its isolates' heaps is nobody's loss.
          const heaviest = pong.heaviest;
          if (heaviest && heaviest.heapBytes > this.#options.limits.memoryMb * 1024 * 1024) this.#recordLoss(heaviest.component);
          this.#recycle(host, 'memory');
        }
      },
      exited: (host) => this.#exited(host),
      output: (host, text) => this.#options.logHostOutput(host.pid, text),
    };
    if (options.sharing.role === 'guest') {
      for (const host of options.sharing.hosts) this.hostAnnounced(host);
    } else {
      for (let slot = 0; slot < options.hosts; slot++) this.#slots.push(this.#startHost());
    }
    this.#heartbeat = setInterval(() => this.#checkHosts(), PING_EVERY_MS).unref();
  }

  /** A version left the catalog (unpublished): the leases granted before no longer run it. */
  revoke(name: string, version: string): void {
    for (const host of this.#slots) if (host?.state === 'ready') host.revoke(name, version);
  }

  /**
   * Runs one execution and answers the isolate's result JSON. Every execution holds a slot of its
   * request's budget, of its component's gate and of its paying tenant's share (the tenant of the
   * request from outside that caused it): one from outside waits for the last two in turn; a
   * nested one takes them at once or fails, since its parent holds a slot while it waits.
   */
  async execute(job: ExecutionJob): Promise<string> {
    const refusal = this.#quarantine.refusal(job.component, job.tenant);
    if (refusal) {
      const losses = this.#quarantine.threshold(refusal.scope);
      throw new TesseraError(
        'SANDBOX_QUARANTINED',
        refusal.scope === 'component'
          ? `Component "${job.component}" lost its sandbox ${losses} times within a minute; all its versions are refused for ${refusal.seconds} s.`
          : `The components of tenant "${job.tenant}" lost their sandbox ${losses} times within a minute; all of them are refused for ${refusal.seconds} s.`,
      );
    }
    const payer = job.budget.rootTenant ?? job.tenant;
    job.budget.takeSlot();
    try {
      const turn = this.#admit(job, payer);
      if (turn) await turn;
      let granted: GrantedLease | undefined;
      try {
        // The execution's own charge first: what its leases take ahead is what the request has left after it.
        const timeoutMs = job.budget.charge();
        // A millisecond's margin: the first charge's deadline less the time read again is not exact.
        if (timeoutMs < this.#options.limits.timeoutMs - 1) job.cutShort = true;
        if (job.children) granted = this.#lease(job, payer, job.children);
        const answer = await this.#run(job, granted, timeoutMs);
        if (granted?.runs) this.#settle(job, granted, granted.runs);
        job.budget.chargeAnswer(answer.length, job.depth > 0);
        return answer;
      } finally {
        if (granted) this.#release(job, payer, granted);
        this.#shares.leave(payer);
        this.#componentGates.leave(job.component, job.depth > 0 && payer !== job.tenant ? payer : undefined);
      }
    } finally {
      job.budget.releaseSlot();
    }
  }

  /**
   * The children of an execution admitted now, as nested renders are (the child's gate and the
   * payer's share at once, a slot and an execution of the request's budget), for its host to run
   * itself; none when none is admitted. Each stays held until the execution's answer, used or not,
   * by code that may only wait: so leases go only to the paying tenant's own executions, and only
   * of its own children, whose held slots are its own. Another tenant's component, or a component
   * another tenant's code asks for, goes through the front, holding its gate only while it runs.
   */
  #lease(job: ExecutionJob, payer: string, children: readonly LeasableChild[]): GrantedLease | undefined {
    if (job.tenant !== payer) return undefined;
    const granted: number[] = [];
    const plans: NestedPlan[] = [];
    for (let index = 0; index < children.length; index++) {
      const { plan, tenant } = children[index]!;
      if (tenant !== payer || this.#quarantine.refusal(plan.component, tenant) || !this.#holdChild(job.budget, payer, plan.component)) continue;
      granted.push(index);
      plans.push(plan);
    }
    if (plans.length === 0) return undefined;
    return { children: granted, lease: { plans, maxChars: job.budget.nestedCharsLeft, boundChars: job.budget.nestedCharsBound }, used: new Set(), returned: new Set(), ended: false, counted: 0 };
  }

  /** Takes what a nested render of `component` takes (a slot and an execution of the budget, the gate and the share at once), all or none. */
  #holdChild(budget: RequestBudget, payer: string, component: string): boolean {
    let taken = 0;
    try {
      budget.takeSlot();
      taken = 1;
      budget.charge();
      taken = 2;
      this.#enterNow(component, payer);
      return true;
    } catch {
      this.#letGoChild(budget, payer, component, taken, false);
      return false;
    }
  }

  /** Gives back the first `taken` of what #holdChild takes (3: all of it), in reverse; an execution never run goes back to the budget. */
  #letGoChild(budget: RequestBudget, payer: string, component: string, taken: number, ran: boolean): void {
    if (taken > 2) {
      this.#shares.leave(payer);
      this.#componentGates.leave(component);
    }
    if (taken > 1 && !ran) budget.refundExecution();
    if (taken > 0) budget.releaseSlot();
  }

  /**
   * What the host ran under the lease: told to the job, their answers counted to the request (the
   * host held them within what the request had left when the lease was granted).
   */
  #settle(job: ExecutionJob, granted: GrantedLease, runs: NestedRun[]): void {
    const used = granted.used;
    let chars = 0;
    for (const run of runs) {
      const child = granted.children[run.plan];
      if (child === undefined || used.has(run.plan) || granted.returned.has(run.plan)) continue;
      used.add(run.plan);
      job.ranNested?.(child, run);
      chars += run.chars;
    }
    job.budget.countLeased(Math.max(0, chars - granted.counted));
  }

  /**
   * The lease of a running execution ended before it (protocol.ts, LeaseEnd): what it never used is
   * given back, what its children brought is counted, before the call that ended it is admitted.
   */
  #leaseEnded(execution: PoolExecution, end: LeaseEnd): void {
    const granted = execution.granted;
    if (!granted || granted.ended) return;
    granted.ended = true;
    for (const at of end.returned) {
      const child = granted.children[at];
      if (child === undefined || granted.returned.has(at)) continue;
      granted.returned.add(at);
      this.#letGoChild(execution.budget, execution.payer, execution.children![child]!.plan.component, 3, false);
    }
    granted.counted = Math.max(0, end.chars);
    execution.budget.countLeased(granted.counted);
  }

  /** Frees what the lease held and was not given back; an execution leased and never run is given back to the request. */
  #release(job: ExecutionJob, payer: string, granted: GrantedLease): void {
    granted.children.forEach((child, at) => {
      if (!granted.returned.has(at)) this.#letGoChild(job.budget, payer, job.children![child]!.plan.component, 3, granted.used.has(at));
    });
  }

  /**
   * Takes the component's slot, then the paying tenant's: at once for a nested render, else in turn
   * (queueing). A promise only when it has to wait: a free slot is taken without one (each promise
   * an execution awaits costs the front a turn of microtasks).
   */
  #admit(job: ExecutionJob, payer: string): Promise<void> | undefined {
    if (job.depth > 0) {
      this.#enterNow(job.component, payer, job.tenant);
      return undefined;
    }
    // A request waits for its turn at most as long as its execution may run, then is told to come back (OVERLOADED).
    const timeoutMs = this.#options.limits.timeoutMs;
    const componentTurn = this.#componentGates.enter(job.component, timeoutMs);
    if (componentTurn === undefined) return this.#enterShare(job.component, payer, timeoutMs);
    const queuedAt = performance.now();
    return componentTurn.then(() => this.#enterShare(job.component, payer, Math.max(1, queuedAt + timeoutMs - performance.now())));
  }

  /**
   * The component's slot and the paying tenant's, both at once or neither (a nested render's, whose
   * parent holds a slot while it waits). `tenant`: the component's, when the payer may be another.
   */
  #enterNow(component: string, payer: string, tenant = payer): void {
    const foreign = payer === tenant ? undefined : payer;
    this.#componentGates.enterNow(component, foreign);
    try {
      this.#shares.enterNow(payer);
    } catch (error) {
      this.#componentGates.leave(component, foreign);
      throw error;
    }
  }

  /** The paying tenant's turn, once the component's slot is held: that slot is given back if the turn fails. */
  #enterShare(component: string, payer: string, waitMs: number): Promise<void> | undefined {
    const leaveGate = (error: unknown): never => {
      this.#componentGates.leave(component);
      throw error;
    };
    try {
      return this.#shares.enter(payer, waitMs)?.catch(leaveGate);
    } catch (error) {
      return leaveGate(error);
    }
  }

  /** A loss of the component's (lost isolate, overdue answer, host memory): counted toward its and its tenant's quarantine. */
  #recordLoss(component: string): void {
    const tenant = this.#options.tenantOf(component);
    for (const scope of this.#quarantine.record(component, tenant)) this.#options.events.quarantined(tenant, scope);
  }

  async #run(job: ExecutionJob, granted: GrantedLease | undefined, timeoutMs: number): Promise<string> {
    let code: ComponentCode | undefined;
    for (;;) {
      const host = this.#near(job) ?? this.#pick(job.component) ?? (await this.#aHost(timeoutMs));
      const answer = await this.#runOn(host, job, code, timeoutMs, granted);
      // A host being replaced, which this front had not heard of yet: the same execution, elsewhere.
      if (answer === ELSEWHERE) continue;
      if (answer !== NEED_CODE) return answer;
      if (code) throw new Error('A sandbox host asked twice for the same code.');
      code = await job.loadCode();
      // The request may have been answered while the code was read.
      job.budget.assertOpen();
    }
  }

  #runOn(
    host: SandboxHost,
    job: ExecutionJob,
    code: ComponentCode | undefined,
    timeoutMs: number,
    granted: GrantedLease | undefined,
  ): Promise<string | typeof ELSEWHERE> {
    return new Promise((resolve, reject) => {
      const settled = () => {
        untrack();
        host.releaseIfIdle();
      };
      const execution: PoolExecution = {
        key: job.key,
        component: job.component,
        plugins: job.plugins,
        depth: job.depth,
        budget: job.budget,
        tenant: job.tenant,
        payer: job.budget.rootTenant ?? job.tenant,
        children: job.children,
        granted,
        resolve: (answer, nested) => {
          settled();
          if (nested && granted) granted.runs = nested;
          resolve(answer);
        },
        reject: (error) => {
          settled();
          reject(error);
        },
      };
      // Another tenant's request: its cancel must leave this tenant's isolate alone.
      const foreign = job.budget.rootTenant !== undefined && job.budget.rootTenant !== job.tenant;
      const id = host.execute(job.component, job.key, code, job.input, timeoutMs, foreign, execution, granted?.lease);
      const untrack = job.budget.track(() => host.cancel(id, new TesseraError('EXECUTION_CANCELLED')));
    });
  }

  /**
   * The ready host for a component: its home host, which keeps all its warm versions (contexts of
   * the component's isolates there), unless the component is hot there or its isolate there is busy
   * running code (a loop its calm requests would wait behind until the time limit); then the next
   * host free of both, else the one least taken by it. With several front threads, a component hot
   * on this one goes to the thread's own host first: each thread then feeds its hosts in bigger
   * batches, where all threads feeding all hosts cost every one more writes and wake-ups.
   */
  #pick(component: string): SandboxHost | undefined {
    const slots = this.#slots;
    const own = this.#options.ownSlot;
    if (own !== undefined && this.#isHot(component)) {
      const host = slots[own % slots.length];
      if (host?.state === 'ready' && !host.busyWith(component)) return host;
    }
    const home = homeSlot(component, slots.length);
    let best: SandboxHost | undefined;
    for (let step = 0; step < slots.length; step++) {
      const host = slots[(home + step) % slots.length];
      if (host?.state !== 'ready') continue;
      if (!host.busyWith(component) && host.inflightOf(component) < SPREAD_AT) return host;
      if (best === undefined || betterFor(component, host, best)) best = host;
    }
    return best;
  }

  /** A nested render's caller's host, when it takes executions of the child's component as calmly as its home host would. */
  #near(job: ExecutionJob): SandboxHost | undefined {
    const host = job.caller?.host;
    return host?.state === 'ready' && !host.busyWith(job.component) && host.inflightOf(job.component) < SPREAD_AT ? host : undefined;
  }

  /** Whether this front has SPREAD_AT or more executions of the component under way, on any host. */
  #isHot(component: string): boolean {
    let inflight = 0;
    for (const host of this.#slots) inflight += host?.inflightOf(component) ?? 0;
    return inflight >= SPREAD_AT;
  }

  /** Waits for any host to be ready (all are starting, after crashes or recycles). */
  #aHost(timeoutMs: number): Promise<SandboxHost> {
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        this.#waitingForHost.delete(wake);
        reject(new TesseraError('SANDBOX_CRASHED', 'No sandbox host became ready in time; retry the request.'));
      }, timeoutMs);
      const wake = () => {
        const host = this.#slots.find((candidate) => candidate?.state === 'ready');
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
    const sharing = this.#options.sharing as Extract<HostSharing, { role: 'owner' }>;
    return new SandboxHost(forkHost(this.#options.limits, socketAddress(sharing.socketFolder, ++this.#hostsStarted)), this.#hostEvents);
  }

  /**
   * A guest's pool: the owner announced the host now in `slot` (at the start, or replacing one). The
   * host it replaces is let go once this front's executions there have ended.
   */
  hostAnnounced(announced: SharedHost): void {
    if (this.#closing) return;
    const previous = this.#slots[announced.slot];
    if (previous?.pid === announced.pid && previous.state !== 'gone') return;
    if (previous && previous.state !== 'gone') {
      previous.state = 'draining';
      this.#draining.add(previous);
      previous.releaseIfIdle();
    }
    this.#slots[announced.slot] = new SandboxHost(connectHost(announced.address, announced.pid), this.#hostEvents);
  }

  /**
   * A host to replace (it lost an execution, an isolate, or outgrew its memory): a new host takes
   * its slot now; the host drains (no new executions, running ones of every front finish) and is
   * killed once drained, or past the time limit anyway. A guest asks the owner to do it.
   */
  #recycle(host: SandboxHost, reason: RecycleReason): void {
    const sharing = this.#options.sharing;
    if (sharing.role === 'guest') {
      sharing.recycle(host.pid, reason);
      return;
    }
    const slot = this.#slots.indexOf(host);
    if (slot === -1 || this.#closing) return;
    host.state = 'draining';
    this.#draining.add(host);
    this.#slots[slot] = this.#startHost();
    this.#options.events.hostReplaced(reason);
    host.drain();
    host.releaseIfIdle();
    // Executions bound to end by their time limit; past it (and a margin) the host goes anyway.
    setTimeout(() => host.kill(), this.#options.limits.timeoutMs + 1000).unref();
  }

  /** Owner: a guest asks for the host with this process id to be replaced. */
  recycleHost(pid: number, reason: RecycleReason): void {
    const host = this.#slots.find((candidate) => candidate?.pid === pid);
    if (host) this.#recycle(host, reason);
  }

  #exited(host: SandboxHost): void {
    this.#draining.delete(host);
    const slot = this.#slots.indexOf(host);
    // A guest's slot is filled by the owner's next announcement.
    if (slot === -1 || this.#closing || this.#options.sharing.role === 'guest') return;
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
      if (host === undefined || host.state === 'gone') continue;
      // Only the owner watches a host's life; a guest answers what it sent.
      if (this.#options.sharing.role === 'guest') {
        this.#overdue(host, now);
        continue;
      }
      if (now - host.lastPongAt > (host.state === 'starting' ? HOST_START_MS : HOST_SILENT_MS)) {
        if (this.#slots.includes(host)) this.#options.events.hostReplaced('silent');
        host.kill();
        continue;
      }
      host.ping();
      this.#overdue(host, now);
    }
  }

  /** A host that lost an execution is recycled (whatever lost it may hold more), and the loss counts against its component. */
  #overdue(host: SandboxHost, now: number): void {
    const components = host.answerOverdue(now);
    if (components.length === 0) return;
    for (const component of new Set(components)) this.#recordLoss(component);
    this.#recycle(host, 'overdue');
  }

  /** The number of hosts the pool keeps (the configured `sandboxHosts`). */
  get size(): number {
    return this.#slots.length;
  }

  /** The process ids of the hosts taking executions, for operators' tooling. */
  hostProcessIds(): number[] {
    return this.#slots.flatMap((host) => (host ? [host.pid] : []));
  }

  /** Execution slots each tenant holds now (the paying tenant: a request's nested renders count as its root's). */
  slotsByTenant(): Iterable<[tenant: string, slots: number]> {
    return this.#shares.held();
  }

  get queueSize(): number {
    return this.#componentGates.queued + this.#shares.queued;
  }

  stats(): SandboxStats {
    const stats: SandboxStats = { hosts: 0, warmIsolates: 0, heapBytes: 0, rssBytes: 0, busyComponents: 0 };
    for (const host of [...this.#slots, ...this.#draining]) {
      if (host === undefined) continue;
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
    const hosts = [...this.#slots, ...this.#draining].filter((host) => host !== undefined);
    for (const host of hosts) host.kill();
    await Promise.all(hosts.map((host) => host.ended));
  }
}
