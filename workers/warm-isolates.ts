import { ComponentIsolate, type BridgeForwarder } from './component-isolate';
import type { ComponentCode, SandboxLimits } from '../src/sandbox/protocol';

interface Entry {
  /** The isolate being built, or the failure JSON of a component that cannot load. */
  readonly building: Promise<ComponentIsolate | string>;
  /** Set once built. */
  isolate?: ComponentIsolate;
}

/**
 * A host's warm isolates, one per component version, least recently used first. Bounded by count and
 * by the heap bytes they hold together (read every `measure`), so a host's memory stays within its
 * budget however many versions its tenants publish.
 */
export class WarmIsolates {
  readonly #limits: SandboxLimits;
  readonly #forward: BridgeForwarder;
  readonly #onLost: (key: string) => void;
  readonly #entries = new Map<string, Entry>();
  #heapBytes = 0;

  constructor(limits: SandboxLimits, forward: BridgeForwarder, onLost: (key: string) => void) {
    this.#limits = limits;
    this.#forward = forward;
    this.#onLost = onLost;
  }

  /**
   * The version's usable isolate, built from `code` when there is none; undefined when it must be
   * built and no code came; a failure JSON when the component cannot load (retried next time).
   */
  async get(key: string, code: ComponentCode | undefined): Promise<ComponentIsolate | string | undefined> {
    const entry = this.#entries.get(key);
    if (entry) {
      const ready = await entry.building;
      if (this.#entries.get(key) === entry) {
        this.#entries.delete(key);
        if (typeof ready !== 'string' && ready.usable) {
          this.#entries.set(key, entry); // re-inserted: the map's order is least recently used first
          return ready;
        }
        if (typeof ready !== 'string') ready.disposeWhenIdle();
      }
      if (typeof ready === 'string') return ready;
    }
    if (!code) return undefined;
    const created: Entry = { building: ComponentIsolate.create(code, this.#limits, this.#forward, () => this.#onLost(key)) };
    this.#entries.set(key, created);
    this.#evictBeyond(this.#limits.maxWarmIsolates);
    const ready = await created.building;
    if (typeof ready !== 'string') created.isolate = ready;
    else if (this.#entries.get(key) === created) this.#entries.delete(key);
    return ready;
  }

  /** Reads the heap of every built isolate, then evicts the coldest while over the byte budget. */
  async measure(): Promise<void> {
    const built = this.#built();
    const heaps = await Promise.all(built.map(([, isolate]) => isolate.heapBytes()));
    this.#heapBytes = heaps.reduce((sum, bytes) => sum + bytes, 0);
    let bytes = this.#heapBytes;
    for (const [index, [key]] of built.entries()) {
      if (bytes <= this.#limits.warmIsolateBytes) break;
      bytes -= heaps[index]!;
      this.#drop(key);
    }
  }

  /** Disposes the isolates that ran code while no execution was in them. */
  checkIdle(): void {
    for (const [, isolate] of this.#built()) isolate.checkIdle();
  }

  /** Isolates built and usable. */
  get count(): number {
    return this.#built().length;
  }

  /** Their heap at the last `measure`. */
  get heapBytes(): number {
    return this.#heapBytes;
  }

  /** The isolates built and usable, least recently used first. */
  #built(): Array<[string, ComponentIsolate]> {
    const built: Array<[string, ComponentIsolate]> = [];
    for (const [key, { isolate }] of this.#entries) if (isolate?.usable) built.push([key, isolate]);
    return built;
  }

  #evictBeyond(maxCount: number): void {
    for (const key of this.#entries.keys()) {
      if (this.#entries.size <= maxCount) return;
      this.#drop(key);
    }
  }

  #drop(key: string): void {
    const entry = this.#entries.get(key);
    this.#entries.delete(key);
    void entry?.building.then((isolate) => {
      if (typeof isolate !== 'string') isolate.disposeWhenIdle();
    });
  }
}
