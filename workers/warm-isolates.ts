import { ComponentIsolate, type BridgeForwarder } from './component-isolate';
import type { ComponentCode, SandboxLimits } from '../src/sandbox/protocol';

type Entry = Promise<ComponentIsolate | string>;

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
  #count = 0;

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
      const ready = await entry;
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
    const created = ComponentIsolate.create(code, this.#limits, this.#forward, () => this.#onLost(key));
    this.#entries.set(key, created);
    this.#evictBeyond(this.#limits.maxWarmIsolates);
    const ready = await created;
    if (typeof ready === 'string' && this.#entries.get(key) === created) this.#entries.delete(key);
    return ready;
  }

  /** Reads the heap of every built isolate, then evicts the coldest while over the byte budget. */
  async measure(): Promise<void> {
    const isolates = await this.#built();
    const heaps = await Promise.all(isolates.map(([, isolate]) => isolate.heapBytes()));
    this.#count = isolates.length;
    this.#heapBytes = heaps.reduce((sum, bytes) => sum + bytes, 0);
    if (this.#heapBytes > this.#limits.warmIsolateBytes) {
      const byKey = new Map(isolates.map(([key], index) => [key, heaps[index]!]));
      let bytes = this.#heapBytes;
      for (const [key, entry] of this.#entries) {
        if (bytes <= this.#limits.warmIsolateBytes) break;
        if (!byKey.has(key)) continue;
        bytes -= byKey.get(key)!;
        this.#drop(key, entry);
      }
    }
  }

  /** Disposes the isolates that ran code while no execution was in them. */
  async checkIdle(): Promise<void> {
    for (const [, isolate] of await this.#built()) isolate.checkIdle();
  }

  get count(): number {
    return this.#count;
  }

  get heapBytes(): number {
    return this.#heapBytes;
  }

  /** The isolates built and usable, without waiting on those still building. */
  async #built(): Promise<Array<[string, ComponentIsolate]>> {
    // Racing each entry against a settled promise answers the entry when it has settled, and
    // undefined (at once) when it has not.
    const entries = [...this.#entries];
    const settled = await Promise.all(entries.map(([, entry]) => Promise.race([entry, Promise.resolve(undefined)])));
    const built: Array<[string, ComponentIsolate]> = [];
    settled.forEach((isolate, index) => {
      if (isolate instanceof ComponentIsolate && isolate.usable) built.push([entries[index]![0], isolate]);
    });
    return built;
  }

  #evictBeyond(maxCount: number): void {
    for (const [key, entry] of this.#entries) {
      if (this.#entries.size <= maxCount) return;
      this.#drop(key, entry);
    }
  }

  #drop(key: string, entry: Entry): void {
    this.#entries.delete(key);
    void entry.then((isolate) => {
      if (typeof isolate !== 'string') isolate.disposeWhenIdle();
    });
  }
}
