import type { ComponentIsolate } from './component-isolate';
import { localAnswer, localCall } from '../src/pipeline/nested-call';
import type { LeaseEnd, NestedLease, NestedPlan, NestedRun } from '../src/sandbox/protocol';
import { nestedCharsRefusal } from '../src/sandbox/request-budget';

/** A child this host runs for its parent under the parent's lease. */
export interface LeasedChild {
  readonly plan: NestedPlan;
  readonly index: number;
  readonly input: string;
  readonly href: string;
  readonly isolate: ComponentIsolate;
  /** Its own limit, or what its root request has left when that is less (then its isolate is kept at the end). */
  readonly timeoutMs: number;
  readonly started: number;
}

/**
 * The nested renders one execution may run on this host without asking the front (protocol.ts,
 * NestedLease): each plan once, while the root request has time left, a child's answers together
 * within the request's nested-answer budget. The front holds the slots, counts the executions and
 * reads what ran when the parent's result comes back.
 */
export class HostLease {
  /** Children running now, by their local execution id. */
  readonly children = new Map<number, LeasedChild>();
  /** The lease's plans (undefined: one this host does not hold, or one revoked, which no call matches). */
  readonly #plans: Array<NestedPlan | undefined>;
  readonly #maxChars: number;
  readonly #boundChars: number;
  readonly #used: boolean[];
  readonly #deadline: number;
  #chars = 0;
  readonly #runs: NestedRun[] = [];
  /** Set once the parent asked the front for a render: the lease's end, given once its running children have answered. */
  #ending: Promise<LeaseEnd> | undefined;
  #whenIdle: (() => void) | undefined;

  /** `plans`: the lease's, read from the connection's table (leased-plans.ts), its own array (a revoked plan is cleared in it); `deadline`: when the parent's root request runs out of time (performance.now()). */
  constructor(lease: NestedLease, plans: Array<NestedPlan | undefined>, deadline: number) {
    this.#plans = plans;
    this.#maxChars = lease.maxChars;
    this.#boundChars = lease.boundChars;
    this.#used = plans.map(() => false);
    this.#deadline = deadline;
  }

  /** The child a call asks for, when the lease covers it and its version is warm here and calm (`warm`); its plan is then used. */
  take(payload: string, warm: (plan: NestedPlan) => ComponentIsolate | undefined): LeasedChild | undefined {
    if (this.#ending) return undefined;
    const call = localCall(this.#plans, this.#used, payload);
    if (!call) return undefined;
    const plan = this.#plans[call.plan]!;
    const isolate = warm(plan);
    const left = this.#deadline - performance.now();
    // Out of time: the front answers the call as it answers any that comes too late.
    if (!isolate || left <= 0) return undefined;
    this.#used[call.plan] = true;
    return { plan, index: call.plan, input: call.input, href: call.href, isolate, timeoutMs: Math.min(plan.timeoutMs, left), started: performance.now() };
  }

  /** What the parent's call is answered, from the child's answer; the run is counted. */
  answered(child: LeasedChild, answer: string): string {
    const ms = performance.now() - child.started;
    if (this.#chars + answer.length > this.#maxChars) {
      // Refused as the front refuses it; nothing of it came through, so nothing more is charged.
      this.#runs.push({ plan: child.index, ms, outcome: 'REQUEST_BUDGET_EXCEEDED', chars: 0 });
      return JSON.stringify({ ok: false, message: nestedCharsRefusal(this.#boundChars) });
    }
    this.#chars += answer.length;
    const local = localAnswer(child.plan, child.href, answer);
    const run: NestedRun = { plan: child.index, ms, outcome: local.outcome, chars: answer.length };
    if (child.timeoutMs < child.plan.timeoutMs - 1) run.short = true;
    this.#runs.push(run);
    return local.answer;
  }

  /** A version left the catalog: its plans match no call any more, and are given back unused. */
  revoke(name: string, version: string): void {
    this.#plans.forEach((plan, index) => {
      if (plan?.name === name && plan.version === version) this.#plans[index] = undefined;
    });
  }

  /** A child has answered, or was stopped (`local`: its execution id here). */
  childEnded(local: number): void {
    this.children.delete(local);
    if (this.children.size === 0) this.#whenIdle?.();
  }

  /**
   * Ends the lease for a call its parent asks of the front (protocol.ts, LeaseEnd): no child runs
   * under it any more; once those running have answered, what was never used is given back and
   * what was brought is told. Every call to the front waits for it, the first one carries it.
   */
  end(): Promise<LeaseEnd> {
    this.#ending ??= new Promise<void>((resolve) => {
      if (this.children.size === 0) resolve();
      else this.#whenIdle = resolve;
    }).then(() => {
      const returned: number[] = [];
      this.#used.forEach((used, index) => {
        if (!used) returned.push(index);
        this.#used[index] = true;
      });
      return { returned, chars: this.#chars };
    });
    return this.#ending;
  }

  /** Whether the lease has ended (or is ending) before its parent did. */
  get ending(): boolean {
    return this.#ending !== undefined;
  }

  /** The parent ended: children still running count as cancelled (the caller stops them); answers every run. */
  runs(): NestedRun[] | undefined {
    const now = performance.now();
    for (const child of this.children.values()) this.#runs.push({ plan: child.index, ms: now - child.started, outcome: 'EXECUTION_CANCELLED', chars: 0 });
    this.children.clear();
    return this.#runs.length > 0 ? this.#runs : undefined;
  }
}
