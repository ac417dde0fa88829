import type { NestedLease, NestedPlan } from './protocol';

/**
 * The plans of each host connection, on either side (protocol.ts, NestedLease). A parent's plans are
 * the same from one of its executions to the next while its children resolve to the same versions:
 * each crosses a connection once, whole, and is named by its id afterwards, which spares the front
 * writing them as JSON, and the host parsing them, at every execution.
 */

/** Plans each side remembers per connection: those of 256 parents leasing 4 children each. */
const MAX_PLANS_PER_CONNECTION = 1024;

/** A lease as the pool grants it, before it goes over a connection (protocol.ts, NestedLease). */
export interface PlannedLease {
  readonly plans: readonly NestedPlan[];
  readonly maxChars: number;
  readonly boundChars: number;
}

/** The front's side of one host connection: the ids of the plans it was sent. */
export class SentPlans {
  readonly #sent = new Set<number>();
  readonly #max: number;

  constructor(max = MAX_PLANS_PER_CONNECTION) {
    this.#max = max;
  }

  /**
   * The lease as it goes over this connection, its plans recorded as sent. When they would pass the
   * bound, the record starts over and the lease tells the host to empty its table too, before it
   * reads the plans, all of which then go whole: both sides start over at the same message.
   */
  lease(granted: PlannedLease): NestedLease {
    let unsent = 0;
    for (const plan of granted.plans) if (!this.#sent.has(plan.id)) unsent++;
    const lease: NestedLease = { plans: [], maxChars: granted.maxChars, boundChars: granted.boundChars };
    if (this.#sent.size + unsent > this.#max) {
      this.#sent.clear();
      lease.forget = true;
    }
    for (const plan of granted.plans) {
      if (this.#sent.has(plan.id)) {
        lease.plans.push(plan.id);
      } else {
        this.#sent.add(plan.id);
        lease.plans.push(plan);
      }
    }
    return lease;
  }
}

/** The host's side of one front's connection: the plans it was sent, by id. */
export class KnownPlans {
  readonly #plans = new Map<number, NestedPlan>();
  readonly #max: number;

  constructor(max = MAX_PLANS_PER_CONNECTION) {
    this.#max = max;
  }

  /**
   * A lease's plans, in its order, those sent whole kept for later leases; an id this connection
   * holds no plan for is undefined, a plan no call matches (the front answers its calls).
   */
  read(lease: NestedLease): Array<NestedPlan | undefined> {
    if (lease.forget) this.#plans.clear();
    return lease.plans.map((entry) => {
      if (typeof entry === 'number') return this.#plans.get(entry);
      // In step with the front the table never passes the bound; it stays bounded even when not.
      if (this.#plans.size >= this.#max && !this.#plans.has(entry.id)) this.#plans.clear();
      this.#plans.set(entry.id, entry);
      return entry;
    });
  }
}
