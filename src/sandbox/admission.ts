import { ComponentGates } from './component-gates';
import type { ComponentOwner } from './component-owner';
import type { ExecutionJob } from './execution-job';
import type { RequestBudget } from './request-budget';
import { TENANCY_POLICY } from './tenancy-policy';
import { TenantShares } from './tenant-shares';

/**
 * Admission of executions: every execution holds a slot of its component's gate and of its paying
 * tenant's share (the tenant of the request from outside that caused it). One from outside waits for
 * them in turn; a nested one takes them at once or fails, since its parent holds a slot while it
 * waits. (A slot of its request's budget is the pool's to take: sandbox-pool.ts.)
 */
export class Admission {
  readonly #shares: TenantShares;
  readonly #componentGates: ComponentGates;
  /** How long a request from outside waits for its turn: as long as its execution may run, then OVERLOADED. */
  readonly #maxWaitMs: number;

  constructor(capacity: number, maxQueue: number, maxConcurrentPerComponent: number, maxWaitMs: number, weightOf: (tenant: string) => number) {
    // Nested renders may borrow slots on top, so nesting keeps working under load.
    this.#shares = new TenantShares(capacity, maxQueue, Math.ceil(capacity * TENANCY_POLICY.nestedHeadroom.value), weightOf);
    this.#componentGates = new ComponentGates(maxConcurrentPerComponent, maxQueue);
    this.#maxWaitMs = maxWaitMs;
  }

  /**
   * Takes the component's slot, then the paying tenant's: at once for a nested render, else in turn
   * (queueing). A promise only when it has to wait: a free slot is taken without one (each promise
   * an execution awaits costs the front a turn of microtasks).
   */
  admit(job: ExecutionJob, payer: string): Promise<void> | undefined {
    // The gate it takes a slot of: its version's publisher's, of its component (a job names both).
    const owner: ComponentOwner = job;
    if (job.depth > 0) {
      this.#enterNow(owner, payer);
      return undefined;
    }
    const timeoutMs = this.#maxWaitMs;
    const componentTurn = this.#componentGates.enter(owner, timeoutMs);
    if (componentTurn === undefined) return this.#enterShare(owner, payer, timeoutMs);
    const queuedAt = performance.now();
    return componentTurn.then(() => this.#enterShare(owner, payer, Math.max(1, queuedAt + timeoutMs - performance.now())));
  }

  /** Gives back what `admit` took. */
  leave(job: ExecutionJob, payer: string): void {
    this.#shares.leave(payer);
    this.#componentGates.leave(job, job.depth > 0 && payer !== job.tenant ? payer : undefined);
  }

  /**
   * The component's slot and the paying tenant's, both at once or neither (a nested render's, whose
   * parent holds a slot while it waits). The payer may be another tenant than the component's.
   */
  #enterNow(owner: ComponentOwner, payer: string): void {
    const foreign = payer === owner.tenant ? undefined : payer;
    this.#componentGates.enterNow(owner, foreign);
    try {
      this.#shares.enterNow(payer);
    } catch (error) {
      this.#componentGates.leave(owner, foreign);
      throw error;
    }
  }

  /** The paying tenant's turn, once the component's slot is held: that slot is given back if the turn fails. */
  #enterShare(owner: ComponentOwner, payer: string, waitMs: number): Promise<void> | undefined {
    const leaveGate = (error: unknown): never => {
      this.#componentGates.leave(owner);
      throw error;
    };
    try {
      return this.#shares.enter(payer, waitMs)?.catch(leaveGate);
    } catch (error) {
      return leaveGate(error);
    }
  }

  /** Takes what a nested render of `component` takes (a slot and an execution of the budget, the gate and the share at once), all or none; `payer` is its publisher too (only a tenant's own children are leased). */
  holdChild(budget: RequestBudget, payer: string, component: string): boolean {
    let taken = 0;
    try {
      budget.takeSlot();
      taken = 1;
      budget.charge();
      taken = 2;
      this.#enterNow({ component, tenant: payer }, payer);
      return true;
    } catch {
      this.letGoChild(budget, payer, component, taken, false);
      return false;
    }
  }

  /** Gives back the first `taken` of what holdChild takes (3: all of it), in reverse; an execution never run goes back to the budget. */
  letGoChild(budget: RequestBudget, payer: string, component: string, taken: number, ran: boolean): void {
    if (taken > 2) {
      this.#shares.leave(payer);
      this.#componentGates.leave({ component, tenant: payer });
    }
    if (taken > 1 && !ran) budget.refundExecution();
    if (taken > 0) budget.releaseSlot();
  }

  /** Execution slots each tenant holds now (the paying tenant: a request's nested renders count as its root's). */
  slotsByTenant(): Iterable<[tenant: string, slots: number]> {
    return this.#shares.held();
  }

  get queueSize(): number {
    return this.#componentGates.queued + this.#shares.queued;
  }
}
