import { TesseraError } from '../errors/errors';
import { AdmissionGate } from './admission-gate';
import type { ComponentOwner } from './component-owner';
import { TENANCY_POLICY } from './tenancy-policy';

/**
 * One admission gate per component (all its versions of one tenant: a moved name's two owners have
 * one each, component-owner.ts): at most `capacity` of its executions run
 * at once and the rest wait in that component's own queue, up to `maxQueue`, then OVERLOADED. A hot
 * tenant therefore holds at most `capacity` of the pool's slots, and its backlog never stands in
 * front of other components. Only components with executions running or waiting keep a gate, and
 * only published components reach here, so the map stays bounded. Gates are found by tenant, then
 * name: every execution enters and leaves one, and a key joining the two would be a new string to
 * build and hash each time.
 */
interface Gate {
  gate: AdmissionGate;
  users: number;
  /** Slots held by the requests of tenants other than the component's, by tenant (made when first held), and together. */
  foreign: Map<string, number> | undefined;
  foreignTotal: number;
}

export class ComponentGates {
  readonly #capacity: number;
  readonly #maxQueue: number;
  readonly #gates = new Map<string, Map<string, Gate>>();
  /** The slots of a component other tenants' requests may hold together, and one other tenant's. */
  readonly #foreignCap: number;
  readonly #perForeignCap: number;

  constructor(capacity: number, maxQueue: number) {
    this.#capacity = capacity;
    this.#maxQueue = maxQueue;
    this.#foreignCap = Math.max(1, Math.floor(capacity * TENANCY_POLICY.foreignShareOfComponent.value));
    this.#perForeignCap = Math.max(1, Math.floor(capacity * TENANCY_POLICY.foreignShareOfComponentPerTenant.value));
  }

  /**
   * Takes one of the component's slots: undefined when one was free, else a promise resolved when
   * one is handed over, or rejected with OVERLOADED past `maxWaitMs`. Throws OVERLOADED when the
   * component's queue is full.
   */
  enter(owner: ComponentOwner, maxWaitMs: number): Promise<void> | undefined {
    const entry = this.#use(owner);
    let turn: Promise<void> | undefined;
    try {
      turn = entry.gate.enter(maxWaitMs);
    } catch (error) {
      this.#release(owner, entry);
      throw error;
    }
    // One that gave up waiting holds no slot: only its use of the gate ends.
    return turn?.catch((error: unknown) => {
      this.#release(owner, entry);
      throw error;
    });
  }

  /**
   * Takes one of the component's slots at once, or throws OVERLOADED: a nested render never waits.
   * `foreignPayer`: the tenant paying for it, when not the component's own. Other tenants' requests
   * hold at most a share of the component's slots together, and each such tenant's a smaller one
   * (tenancy-policy.ts): another tenant's fan-out, or several, never take every slot the component's
   * own visitors need, and one never takes all those the others may use.
   */
  enterNow(owner: ComponentOwner, foreignPayer?: string): void {
    const entry = this.#use(owner);
    const held = foreignPayer === undefined ? 0 : (entry.foreign?.get(foreignPayer) ?? 0);
    if (foreignPayer !== undefined && (held >= this.#perForeignCap || entry.foreignTotal >= this.#foreignCap)) {
      this.#release(owner, entry);
      const bound =
        held >= this.#perForeignCap
          ? `for the requests of tenant "${foreignPayer}" as one other tenant's requests may hold (${this.#perForeignCap} of its ${this.#capacity})`
          : `for other tenants' requests as they may hold together (${this.#foreignCap} of its ${this.#capacity})`;
      throw new TesseraError('OVERLOADED', `Component "${owner.component}" runs as many executions ${bound}: a nested render of it found no free slot; retry later.`);
    }
    if (!entry.gate.tryEnter()) {
      this.#release(owner, entry);
      throw new TesseraError('OVERLOADED', `Component "${owner.component}" runs as many executions at once as it may: a nested render of it found no free slot; retry later.`);
    }
    if (foreignPayer !== undefined) {
      (entry.foreign ??= new Map()).set(foreignPayer, held + 1);
      entry.foreignTotal++;
    }
  }

  /** Gives back a slot (`foreignPayer`: as `enterNow` took it). */
  leave(owner: ComponentOwner, foreignPayer?: string): void {
    const entry = this.#gates.get(owner.tenant)?.get(owner.component);
    if (!entry) return;
    if (foreignPayer !== undefined && entry.foreign) {
      const held = (entry.foreign.get(foreignPayer) ?? 1) - 1;
      if (held > 0) entry.foreign.set(foreignPayer, held);
      else entry.foreign.delete(foreignPayer);
      entry.foreignTotal--;
    }
    entry.gate.leave();
    this.#release(owner, entry);
  }

  /** Executions waiting behind their component's limit. */
  get queued(): number {
    let queued = 0;
    for (const gates of this.#gates.values()) for (const { gate } of gates.values()) queued += gate.queued;
    return queued;
  }

  #use({ tenant, component }: ComponentOwner): Gate {
    let gates = this.#gates.get(tenant);
    if (!gates) this.#gates.set(tenant, (gates = new Map()));
    let entry = gates.get(component);
    if (!entry) {
      entry = { gate: new AdmissionGate(this.#capacity, this.#maxQueue), users: 0, foreign: undefined, foreignTotal: 0 };
      gates.set(component, entry);
    }
    entry.users++;
    return entry;
  }

  #release({ tenant, component }: ComponentOwner, entry: { users: number }): void {
    if (--entry.users > 0) return;
    const gates = this.#gates.get(tenant)!;
    gates.delete(component);
    if (gates.size === 0) this.#gates.delete(tenant);
  }
}
