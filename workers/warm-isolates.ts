import { ComponentIsolate, type BridgeForwarder } from './component-isolate';
import type { ComponentCode, SandboxLimits } from '../src/sandbox/protocol';

/** Isolates of one version a host keeps at most: more than one only while one is known busy. */
const MAX_ISOLATES_PER_VERSION = 3;

interface Build {
  /** The isolate being built, or the failure JSON of a component that cannot load. */
  readonly building: Promise<ComponentIsolate | string>;
  /** Set once built. */
  isolate?: ComponentIsolate;
}

/** One version's isolates on this host, and its code, kept to build another when they are busy. */
interface Version {
  readonly code: ComponentCode;
  builds: Build[];
}

/**
 * A host's warm isolates per component version, least recently used version first. Bounded by count
 * and by the heap bytes they hold together (read every `measure`), so a host's memory stays within
 * its budget however many versions its tenants publish. A version whose isolate is known busy (a
 * loop, or work queued behind one) gets another, up to MAX_ISOLATES_PER_VERSION, so its other
 * requests never wait behind the busy one.
 */
export class WarmIsolates {
  readonly #limits: SandboxLimits;
  readonly #forward: BridgeForwarder;
  readonly #onLost: (key: string) => void;
  readonly #versions = new Map<string, Version>();
  #heapBytes = 0;

  constructor(limits: SandboxLimits, forward: BridgeForwarder, onLost: (key: string) => void) {
    this.#limits = limits;
    this.#forward = forward;
    this.#onLost = onLost;
  }

  /**
   * An isolate of the version that is not known busy, built from its code when needed; undefined when
   * the host has never been sent the code; a failure JSON when the component cannot load (retried
   * next time).
   */
  async get(key: string, code: ComponentCode | undefined): Promise<ComponentIsolate | string | undefined> {
    let version = this.#versions.get(key);
    if (version) {
      this.#versions.delete(key); // re-inserted: the map's order is least recently used first
      this.#versions.set(key, version);
      for (const build of version.builds) if (build.isolate?.usable && !build.isolate.knownBusy) return build.isolate;
      const pending = version.builds.find((build) => build.isolate === undefined);
      if (pending) {
        const ready = await pending.building;
        if (typeof ready === 'string' || (ready.usable && !ready.knownBusy)) return ready;
      }
      version.builds = version.builds.filter((build) => build.isolate === undefined || build.isolate.usable);
    } else if (code) {
      version = { code, builds: [] };
      this.#versions.set(key, version);
      this.#evictBeyond(this.#limits.maxWarmIsolates);
    } else {
      return undefined;
    }
    if (version.builds.length >= MAX_ISOLATES_PER_VERSION) return version.builds.find((build) => build.isolate?.usable)?.isolate ?? this.#build(key, version);
    return this.#build(key, version);
  }

  async #build(key: string, version: Version): Promise<ComponentIsolate | string> {
    const build: Build = { building: ComponentIsolate.create(version.code, this.#limits, this.#forward, () => this.#onLost(key)) };
    version.builds.push(build);
    const ready = await build.building;
    if (typeof ready !== 'string') {
      build.isolate = ready;
    } else {
      version.builds = version.builds.filter((other) => other !== build);
      if (version.builds.length === 0 && this.#versions.get(key) === version) this.#versions.delete(key);
    }
    return ready;
  }

  /** Reads the heap of every built isolate, then evicts the coldest versions while over the byte budget. */
  async measure(): Promise<void> {
    const built = this.#built();
    const heaps = await Promise.all(built.map(([, isolate]) => isolate.heapBytes()));
    let bytes = heaps.reduce((sum, heap) => sum + heap, 0);
    for (const [index, [key]] of built.entries()) {
      if (bytes <= this.#limits.warmIsolateBytes) break;
      bytes -= heaps[index]!;
      this.#drop(key);
    }
    this.#heapBytes = bytes;
  }

  /** Disposes the isolates that ran code while no execution was in them. */
  checkIdle(): void {
    for (const [, isolate] of this.#built()) isolate.checkIdle();
  }

  /** Isolates built and usable. */
  get count(): number {
    return this.#built().length;
  }

  /** Their heap at the last `measure`, after its evictions. */
  get heapBytes(): number {
    return this.#heapBytes;
  }

  /** The isolates built and usable, those of the least recently used versions first. */
  #built(): Array<[string, ComponentIsolate]> {
    const built: Array<[string, ComponentIsolate]> = [];
    for (const [key, { builds }] of this.#versions) for (const { isolate } of builds) if (isolate?.usable) built.push([key, isolate]);
    return built;
  }

  #evictBeyond(maxVersions: number): void {
    for (const key of this.#versions.keys()) {
      if (this.#versions.size <= maxVersions) return;
      this.#drop(key);
    }
  }

  /** Forgets a version; its isolates go once their running executions end. */
  #drop(key: string): void {
    const version = this.#versions.get(key);
    this.#versions.delete(key);
    for (const build of version?.builds ?? []) {
      void build.building.then((isolate) => {
        if (typeof isolate !== 'string') isolate.disposeWhenIdle();
      });
    }
  }
}
