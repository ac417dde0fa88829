import { TesseraError } from '../errors/errors';
import { AdmissionGate } from './admission-gate';

/**
 * One admission gate per component (all its versions): at most `capacity` of its executions run
 * at once and the rest wait in that component's own queue, up to `maxQueue`, then OVERLOADED. A hot
 * tenant therefore holds at most `capacity` of the pool's slots, and its backlog never stands in
 * front of other components. Only components with executions running or waiting keep a gate, and
 * only published components reach here, so the map stays bounded.
 */
export class ComponentGates {
  readonly #capacity: number;
  readonly #maxQueue: number;
  readonly #gates = new Map<string, { gate: AdmissionGate; users: number }>();

  constructor(capacity: number, maxQueue: number) {
    this.#capacity = capacity;
    this.#maxQueue = maxQueue;
  }

  /**
   * Takes one of the component's slots: undefined when one was free, else a promise resolved when
   * one is handed over, or rejected with OVERLOADED past `maxWaitMs`. Throws OVERLOADED when the
   * component's queue is full.
   */
  enter(component: string, maxWaitMs: number): Promise<void> | undefined {
    const entry = this.#use(component);
    let turn: Promise<void> | undefined;
    try {
      turn = entry.gate.enter(maxWaitMs);
    } catch (error) {
      this.#release(component, entry);
      throw error;
    }
    // One that gave up waiting holds no slot: only its use of the gate ends.
    return turn?.catch((error: unknown) => {
      this.#release(component, entry);
      throw error;
    });
  }

  /** Takes one of the component's slots at once, or throws OVERLOADED: a nested render never waits. */
  enterNow(component: string): void {
    const entry = this.#use(component);
    if (!entry.gate.tryEnter()) {
      this.#release(component, entry);
      throw new TesseraError('OVERLOADED', `Component "${component}" runs as many executions at once as it may: a nested render of it found no free slot; retry later.`);
    }
  }

  leave(component: string): void {
    const entry = this.#gates.get(component);
    if (!entry) return;
    entry.gate.leave();
    this.#release(component, entry);
  }

  /** Executions waiting behind their component's limit. */
  get queued(): number {
    let queued = 0;
    for (const { gate } of this.#gates.values()) queued += gate.queued;
    return queued;
  }

  #use(component: string): { gate: AdmissionGate; users: number } {
    let entry = this.#gates.get(component);
    if (!entry) {
      entry = { gate: new AdmissionGate(this.#capacity, this.#maxQueue), users: 0 };
      this.#gates.set(component, entry);
    }
    entry.users++;
    return entry;
  }

  #release(component: string, entry: { users: number }): void {
    if (--entry.users === 0) this.#gates.delete(component);
  }
}
