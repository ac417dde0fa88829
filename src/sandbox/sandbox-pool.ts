import { TesseraError } from '../errors/errors';
import { Admission } from './admission';
import type { BridgeRequest, ExecutionJob, LeasableChild } from './execution-job';
import { ExecutionLeases, type GrantedLease } from './execution-leases';
import { HostSupervision } from './host-supervision';
import { nearHost } from './host-routing';
import type { RecycleReason, SharedHost } from './host-sharing';
import type { SandboxPoolOptions, SandboxStats } from './pool-options';
import { NEED_CODE, type BridgeCallMessage, type ComponentCode } from './protocol';
import type { ComponentOwner } from './component-owner';
import { Quarantine } from './quarantine';
import type { RequestBudget } from './request-budget';
import { ELSEWHERE, type HostExecution, type SandboxHost } from './sandbox-host';
import { TENANCY_POLICY } from './tenancy-policy';

/** Losses of one component, or of one tenant's components together, that refuse them for a while (tenancy-policy.ts). */
const QUARANTINE = {
  componentLosses: TENANCY_POLICY.quarantineComponentLosses.value,
  tenantLosses: TENANCY_POLICY.quarantineTenantLosses.value,
  windowMs: TENANCY_POLICY.quarantineWindowMs.value,
  forMs: TENANCY_POLICY.quarantineForMs.value,
};

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

const pluginName = (payload: string): string => {
  try {
    const name: unknown = JSON.parse(payload)?.name;
    return typeof name === 'string' ? name : '';
  } catch {
    return '';
  }
};

/**
 * The front's handle on the sandbox host processes (workers/sandbox-host.ts). It runs an execution
 * through its rooms: quarantine, the request's budget, admission (admission.ts: gates, shares),
 * leases of its children (execution-leases.ts), the host it is routed to (host-routing.ts), kept
 * alive and replaced by host-supervision.ts; and it answers the hosts' bridge calls.
 */
export class SandboxPool {
  readonly #options: SandboxPoolOptions;
  readonly #admission: Admission;
  readonly #quarantine = new Quarantine(QUARANTINE);
  readonly #leases: ExecutionLeases;
  readonly #hosts: HostSupervision;

  constructor(options: SandboxPoolOptions) {
    this.#options = options;
    const capacity = options.hosts * options.concurrentPerHost;
    this.#admission = new Admission(capacity, options.maxQueue, options.maxConcurrentPerComponent, options.limits.timeoutMs, options.weightOf);
    this.#leases = new ExecutionLeases(this.#admission, this.#quarantine);
    this.#hosts = new HostSupervision(options, {
      bridge: (host, execution, message) => this.#bridge(host, execution as PoolExecution, message),
      recordLoss: (owner) => this.#recordLoss(owner),
    });
  }

  /** A bridge call of an execution: a plugin it declares, or a nested render, answered by the front. */
  #bridge(host: SandboxHost, execution: PoolExecution, message: BridgeCallMessage): void {
    const { key, depth, budget, plugins } = execution;
    // A leased child never calls a plugin: a component that declares any is never leased.
    if (message.op === 'plugin' && (message.deeper !== undefined || !plugins.includes(pluginName(message.payload)))) {
      host.answerBridge(message.call, JSON.stringify({ ok: false, message: 'The component does not declare this plugin.' }));
      return;
    }
    if (message.leaseEnd !== undefined && message.deeper === undefined) this.#leases.ended(execution, message.leaseEnd);
    // A child run under a lease is of its parent's tenant (the payer's): its calls are that tenant's too.
    const callerTenant = execution.tenant;
    const request: BridgeRequest =
      message.deeper === undefined
        ? { op: message.op, payload: message.payload, depth, budget, caller: { key, host }, callerTenant, callerComponent: execution.component }
        : { op: message.op, payload: message.payload, depth: depth + 1, budget, callerTenant };
    this.#options.bridge(request).then(
      (answer) => host.answerBridge(message.call, answer),
      (error: unknown) => host.answerBridge(message.call, JSON.stringify({ ok: false, message: error instanceof Error ? error.message : String(error) })),
    );
  }

  /** A version left the catalog (unpublished): the leases granted before no longer run it. */
  revoke(name: string, version: string): void {
    this.#hosts.revoke(name, version);
  }

  /**
   * Runs one execution and answers the isolate's result JSON. Every execution holds a slot of its
   * request's budget, and is admitted (admission.ts) as its request's tenant pays for it.
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
      const turn = this.#admission.admit(job, payer);
      if (turn) await turn;
      let granted: GrantedLease | undefined;
      try {
        // The execution's own charge first: what its leases take ahead is what the request has left after it.
        const timeoutMs = this.#charge(job);
        if (job.children) granted = this.#leases.grant(job, payer, job.children);
        // One round trip in the common case, awaited here rather than in a function of its own: a
        // rendered GET already passes through a handful of promises.
        const host = this.#hostAtHand(job) ?? (await this.#hosts.aHost(timeoutMs));
        const first = await this.#runOn(host, job, undefined, timeoutMs, granted);
        const answer = first === ELSEWHERE || first === NEED_CODE ? await this.#runAgain(job, granted, timeoutMs, host, first) : first;
        if (granted?.runs) this.#leases.settle(job, granted, granted.runs);
        job.budget.chargeAnswer(answer.length, job.depth > 0);
        return answer;
      } finally {
        if (granted) this.#leases.release(job, payer, granted);
        this.#admission.leave(job, payer);
      }
    } finally {
      job.budget.releaseSlot();
    }
  }

  /**
   * Charges an execution to its request and answers its time limit. Given less than its own limit
   * (its request's time partly spent), or refused for none left, it is cut short: a timeout is then
   * its request's, never counted as its component's.
   */
  #charge(job: ExecutionJob): number {
    try {
      const timeoutMs = job.budget.charge();
      // A millisecond's margin: the first charge's deadline less the time read again is not exact.
      if (timeoutMs < this.#options.limits.timeoutMs - 1) job.cutShort = true;
      return timeoutMs;
    } catch (error) {
      if (error instanceof TesseraError && error.code === 'EXECUTION_TIMEOUT') job.cutShort = true;
      throw error;
    }
  }

  /** A loss of one tenant's versions of a component (lost isolate, overdue answer, host memory): counted toward their and their tenant's quarantine. */
  #recordLoss(owner: ComponentOwner): void {
    for (const scope of this.#quarantine.record(owner)) this.#options.events.quarantined(owner.tenant, scope);
  }

  /** A ready host for the execution, without waiting: `asked` (the one that asked for the code), its caller's, or the pool's pick. */
  #hostAtHand(job: ExecutionJob, asked?: SandboxHost): SandboxHost | undefined {
    return (asked?.state === 'ready' ? asked : undefined) ?? nearHost(job.caller?.host, job.component) ?? this.#hosts.pick(job.component);
  }

  /**
   * After a first answer that ran nothing: ELSEWHERE (a host being replaced, which this front had not
   * heard of yet: the same execution, elsewhere) or NEED_CODE (the host lacks the version's code: it
   * goes back to that host with the code, as first picked, not to a host the pick avoided, busy by now).
   */
  async #runAgain(job: ExecutionJob, granted: GrantedLease | undefined, timeoutMs: number, first: SandboxHost, firstAnswer: typeof ELSEWHERE | typeof NEED_CODE): Promise<string> {
    let code: ComponentCode | undefined;
    let host = first;
    let answer: string | typeof ELSEWHERE = firstAnswer;
    for (;;) {
      let asked: SandboxHost | undefined;
      if (answer === NEED_CODE) {
        if (code) throw new Error('A sandbox host asked twice for the same code.');
        asked = host;
        code = await job.loadCode();
        // The request may have been answered while the code was read.
        job.budget.assertOpen();
      } else if (answer !== ELSEWHERE) {
        return answer;
      }
      host = this.#hostAtHand(job, asked) ?? (await this.#hosts.aHost(timeoutMs));
      answer = await this.#runOn(host, job, code, timeoutMs, granted);
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
        resolve: (answer, nested, tail) => {
          settled();
          if (nested && granted) granted.runs = nested;
          if (tail) job.report = tail;
          resolve(answer);
        },
        reject: (error) => {
          settled();
          reject(error);
        },
      };
      // Another tenant's request: its cancel must leave this tenant's isolate alone.
      const foreign = job.budget.rootTenant !== undefined && job.budget.rootTenant !== job.tenant;
      const id = host.execute(job.component, job.key, code, job.input, timeoutMs, foreign, execution, granted?.lease, job.tail === true);
      const untrack = job.budget.track(() => host.cancel(id, new TesseraError('EXECUTION_CANCELLED')));
    });
  }

  /** A guest's pool: the owner announced the host now in `slot` (host-supervision.ts). */
  hostAnnounced(announced: SharedHost): void {
    this.#hosts.hostAnnounced(announced);
  }

  /** Owner: a guest asks for the host with this process id to be replaced. */
  recycleHost(pid: number, reason: RecycleReason): void {
    this.#hosts.recycleHost(pid, reason);
  }

  /** The number of hosts the pool keeps (the configured `sandboxHosts`). */
  get size(): number {
    return this.#hosts.size;
  }

  /** The process ids of the hosts taking executions, for operators' tooling. */
  hostProcessIds(): number[] {
    return this.#hosts.hostProcessIds();
  }

  /** Execution slots each tenant holds now (the paying tenant: a request's nested renders count as its root's). */
  slotsByTenant(): Iterable<[tenant: string, slots: number]> {
    return this.#admission.slotsByTenant();
  }

  get queueSize(): number {
    return this.#admission.queueSize;
  }

  stats(): SandboxStats {
    return this.#hosts.stats();
  }

  /** Stops every host at once. */
  close(): Promise<void> {
    return this.#hosts.close();
  }
}
