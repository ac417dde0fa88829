import type { Admission } from './admission';
import type { ExecutionJob, LeasableChild } from './execution-job';
import type { PlannedLease } from './leased-plans';
import type { LeaseEnd, NestedPlan, NestedRun } from './protocol';
import type { Quarantine } from './quarantine';
import type { RequestBudget } from './request-budget';

/** A lease granted to one execution: which of its children, and the lease to send with it (each host connection writes its own: leased-plans.ts). */
export interface GrantedLease {
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

/** A running execution holding a lease, as the pool keeps it. */
export interface LeaseHolder {
  readonly budget: RequestBudget;
  readonly payer: string;
  readonly children: readonly LeasableChild[] | undefined;
  readonly granted: GrantedLease | undefined;
}

/**
 * Leases: the children of an execution admitted with it, for its host to run itself. Each is
 * admitted as a nested render is (the child's gate and the payer's share at once, a slot and an
 * execution of the request's budget) and stays held until the execution's answer, used or not, by
 * code that may only wait: so leases go only to the paying tenant's own executions, and only of its
 * own children, whose held slots are its own. Another tenant's component, or a component another
 * tenant's code asks for, goes through the front, holding its gate only while it runs.
 */
export class ExecutionLeases {
  readonly #admission: Admission;
  readonly #quarantine: Quarantine;

  constructor(admission: Admission, quarantine: Quarantine) {
    this.#admission = admission;
    this.#quarantine = quarantine;
  }

  /** The children of an execution admitted now; none when none is. */
  grant(job: ExecutionJob, payer: string, children: readonly LeasableChild[]): GrantedLease | undefined {
    if (job.tenant !== payer) return undefined;
    const granted: number[] = [];
    const plans: NestedPlan[] = [];
    for (let index = 0; index < children.length; index++) {
      const { plan, tenant } = children[index]!;
      if (tenant !== payer || this.#quarantine.refusal(plan.component, tenant) || !this.#admission.holdChild(job.budget, payer, plan.component)) continue;
      granted.push(index);
      plans.push(plan);
    }
    if (plans.length === 0) return undefined;
    return { children: granted, lease: { plans, maxChars: job.budget.nestedCharsLeft, boundChars: job.budget.nestedCharsBound }, used: new Set(), returned: new Set(), ended: false, counted: 0 };
  }

  /**
   * What the host ran under the lease: told to the job, their answers counted to the request (the
   * host held them within what the request had left when the lease was granted).
   */
  settle(job: ExecutionJob, granted: GrantedLease, runs: NestedRun[]): void {
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
  ended(holder: LeaseHolder, end: LeaseEnd): void {
    const granted = holder.granted;
    if (!granted || granted.ended) return;
    granted.ended = true;
    for (const at of end.returned) {
      const child = granted.children[at];
      if (child === undefined || granted.returned.has(at)) continue;
      granted.returned.add(at);
      this.#admission.letGoChild(holder.budget, holder.payer, holder.children![child]!.plan.component, 3, false);
    }
    granted.counted = Math.max(0, end.chars);
    holder.budget.countLeased(granted.counted);
  }

  /** Frees what the lease held and was not given back; an execution leased and never run is given back to the request. */
  release(job: ExecutionJob, payer: string, granted: GrantedLease): void {
    granted.children.forEach((child, at) => {
      if (!granted.returned.has(at)) this.#admission.letGoChild(job.budget, payer, job.children![child]!.plan.component, 3, granted.used.has(at));
    });
  }
}
