import { TesseraError } from '../errors/errors';

/** Why a waiting request makes room in a full queue for another tenant's. */
const QUEUE_SHARE = 'The registry is at capacity and its queue is full: this tenant holds more of it than others; retry later.';

/** Why a request that waited for a slot as long as it may (the execution time limit) is turned away. */
const WAITED_TOO_LONG = 'The registry is at capacity: no execution slot was free within the execution time limit; retry later.';

/** An execution waiting for a slot: handed one, or turned away. */
interface Waiter {
  readonly handOver: () => void;
  readonly turnAway: (error: TesseraError) => void;
}

/** A tenant's slots and its executions waiting for one. */
interface TenantState {
  readonly weight: number;
  running: number;
  readonly waiting: Waiter[];
}

/**
 * The pool's execution slots shared between tenants by **weighted max-min fairness**: each tenant
 * with executions running or waiting (an active tenant) is guaranteed `capacity × its weight / the
 * active tenants' weights`, and may borrow what the others leave idle. So an idle registry lets one
 * tenant use every slot, and a tenant that arrives while another holds them all still starts its
 * executions at once, up to its share (slots are a bound on executions at once, not a fixed
 * resource: at most `capacity` more run while the borrower's executions end). A tenant past its
 * share waits (a request from outside, in its tenant's queue, up to `maxQueue` in all: a full queue
 * turns away the newest waiter of the tenant holding most of it, for its weight) or is refused
 * at once (a nested render: it must never wait behind its parent). A freed slot goes to the waiting
 * tenant holding the fewest slots for its weight.
 */
export class TenantShares {
  readonly #capacity: number;
  readonly #maxQueue: number;
  /** Slots nested renders may borrow beyond `capacity` (they cannot wait, so they get a margin). */
  readonly #nestedCapacity: number;
  readonly #weightOf: (tenant: string) => number;
  /** Active tenants only: an idle tenant's entry is dropped, so the map is bounded by tenants at work. */
  readonly #tenants = new Map<string, TenantState>();
  #running = 0;
  #queued = 0;
  #activeWeight = 0;

  constructor(capacity: number, maxQueue: number, nestedHeadroom: number, weightOf: (tenant: string) => number) {
    this.#capacity = capacity;
    this.#maxQueue = maxQueue;
    this.#nestedCapacity = capacity + nestedHeadroom;
    this.#weightOf = weightOf;
  }

  /**
   * Takes a slot for an execution from outside: answers undefined when it may start now, else a
   * promise resolved when a slot is handed over, or rejected with OVERLOADED past `maxWaitMs`.
   * Throws OVERLOADED when the queue is full. Not async: a free slot costs no promise.
   */
  enter(tenant: string, maxWaitMs: number): Promise<void> | undefined {
    const state = this.#state(tenant);
    if (state.waiting.length === 0 && this.#mayStart(state, this.#capacity)) {
      this.#take(state);
      return undefined;
    }
    if (this.#queued >= this.#maxQueue && !this.#pushOutFor(state)) {
      this.#dropIfIdle(tenant, state);
      throw new TesseraError('OVERLOADED');
    }
    return new Promise<void>((resolve, reject) => {
      const leaveQueue = () => {
        clearTimeout(timer);
        state.waiting.splice(state.waiting.indexOf(waiter), 1);
        this.#queued--;
      };
      const waiter: Waiter = {
        handOver: () => {
          clearTimeout(timer);
          resolve();
        },
        turnAway: (error) => {
          leaveQueue();
          this.#dropIfIdle(tenant, state);
          reject(error);
        },
      };
      const timer = setTimeout(() => waiter.turnAway(new TesseraError('OVERLOADED', WAITED_TOO_LONG)), maxWaitMs);
      state.waiting.push(waiter);
      this.#queued++;
    });
  }

  /**
   * A full queue makes room for a tenant with less in it for its weight (running and waiting) than
   * the most served tenant waiting, whose newest waiter is turned away: one tenant filling the queue
   * never leaves another refused. Answers whether room was made.
   */
  #pushOutFor(state: TenantState): boolean {
    const load = (tenant: TenantState, extra = 0) => (tenant.running + tenant.waiting.length + extra) / tenant.weight;
    let most: TenantState | undefined;
    for (const other of this.#tenants.values()) {
      if (other !== state && other.waiting.length > 0 && (most === undefined || load(other) > load(most))) most = other;
    }
    if (most === undefined || load(most) <= load(state, 1)) return false;
    most.waiting[most.waiting.length - 1]!.turnAway(new TesseraError('OVERLOADED', QUEUE_SHARE));
    return true;
  }

  /** Takes a slot for a nested render at once, or throws OVERLOADED: it never waits. */
  enterNow(tenant: string): void {
    const state = this.#state(tenant);
    if (!this.#mayStart(state, this.#nestedCapacity)) {
      this.#dropIfIdle(tenant, state);
      throw new TesseraError('OVERLOADED', `The registry is at capacity for tenant "${tenant}": a nested render found no free execution slot within its share; retry later.`);
    }
    this.#take(state);
  }

  /** Frees a slot of `tenant`, then hands slots to waiting tenants, the least served first. */
  leave(tenant: string): void {
    const state = this.#tenants.get(tenant);
    if (!state) return;
    state.running--;
    this.#running--;
    this.#dropIfIdle(tenant, state);
    while (this.#queued > 0) {
      const next = this.#leastServedWaiting();
      if (!next) return;
      this.#take(next);
      this.#queued--;
      next.waiting.shift()!.handOver();
    }
  }

  /** Executions waiting for a slot, all tenants together. */
  get queued(): number {
    return this.#queued;
  }

  /** Slots `tenant` holds now. */
  runningOf(tenant: string): number {
    return this.#tenants.get(tenant)?.running ?? 0;
  }

  /** Slots held by each tenant that holds some. */
  *held(): Iterable<[tenant: string, slots: number]> {
    for (const [tenant, state] of this.#tenants) if (state.running > 0) yield [tenant, state.running];
  }

  /**
   * A tenant may start an execution while the pool has a free slot (below `ceiling`) no other
   * tenant waits for, or while it holds less than its guaranteed share, whatever others borrowed.
   */
  #mayStart(state: TenantState, ceiling: number): boolean {
    if (this.#running < ceiling && this.#queued - state.waiting.length === 0) return true;
    return state.running < (this.#capacity * state.weight) / this.#activeWeight && this.#running < this.#capacity * 2;
  }

  /** The waiting tenant that may start, holding the fewest slots for its weight. */
  #leastServedWaiting(): TenantState | undefined {
    let best: TenantState | undefined;
    for (const state of this.#tenants.values()) {
      if (state.waiting.length === 0) continue;
      const free = this.#running < this.#capacity;
      const underShare = state.running < (this.#capacity * state.weight) / this.#activeWeight && this.#running < this.#capacity * 2;
      if (!free && !underShare) continue;
      if (best === undefined || state.running / state.weight < best.running / best.weight) best = state;
    }
    return best;
  }

  #take(state: TenantState): void {
    state.running++;
    this.#running++;
  }

  #state(tenant: string): TenantState {
    let state = this.#tenants.get(tenant);
    if (state === undefined) {
      const weight = this.#weightOf(tenant);
      state = { weight: weight > 0 ? weight : 1, running: 0, waiting: [] };
      this.#tenants.set(tenant, state);
      this.#activeWeight += state.weight;
    }
    return state;
  }

  #dropIfIdle(tenant: string, state: TenantState): void {
    if (state.running > 0 || state.waiting.length > 0 || this.#tenants.get(tenant) !== state) return;
    this.#tenants.delete(tenant);
    this.#activeWeight -= state.weight;
  }
}
