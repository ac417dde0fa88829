import { ComponentIsolate } from './component-isolate';
import type { BridgeForwarder } from './isolate-bridge';
import type { ComponentCode, PongMessage, SandboxLimits } from '../src/sandbox/protocol';

type Heaviest = NonNullable<PongMessage['heaviest']>;

/**
 * Versions of one component sharing one isolate, at most. Contexts of one isolate share its memory
 * limit; past this many the component's next versions get another isolate.
 */
const VERSIONS_PER_ISOLATE = 16;

interface WarmVersion {
  readonly isolate: ComponentIsolate;
  /** Settles when the version's context is built: undefined, or the failure JSON. */
  readonly built: Promise<string | undefined>;
  ready: boolean;
  /** When it was last used (a count of uses, host-wide): the least recently used go first. */
  lastUsed: number;
  /** The tenant it belongs to. */
  readonly tenant: string;
}

/**
 * A host's warm versions, the least recently used evicted first (by bytes: the heaviest tenant's). Each is a context in its
 * component's isolate (a component's versions of one tenant share isolates; different components, or
 * versions of one name published by different tenants, never do).
 * Bounded by count and by the heap they hold together (read every `measure`), so a host's memory
 * stays within its budget however many versions its tenants publish.
 */
export class WarmIsolates {
  readonly #limits: SandboxLimits;
  readonly #forward: BridgeForwarder;
  readonly #onLost: (tenant: string, keys: string[], stillRunning: boolean) => void;
  /** By version key. */
  readonly #versions = new Map<string, WarmVersion>();
  #uses = 0;
  /** Each component's isolates, by component name. */
  readonly #isolates = new Map<string, ComponentIsolate[]>();
  #heapBytes = 0;
  #count = 0;
  #heaviest: Heaviest | undefined;
  /**
   * CPU time (ns) spent by each tenant's isolates since the last `takeCpu`: by the tenant whose
   * versions an isolate runs, not by its component's name, which two tenants hold once it moved.
   */
  #cpu = new Map<string, bigint>();

  constructor(limits: SandboxLimits, forward: BridgeForwarder, onLost: (tenant: string, keys: string[], stillRunning: boolean) => void) {
    this.#limits = limits;
    this.#forward = forward;
    this.#onLost = onLost;
  }

  /** The isolate holding the version's built context, when there is a usable one: the common case, with no promise. */
  ready(key: string): ComponentIsolate | undefined {
    const warm = this.#versions.get(key);
    if (!warm?.ready || !warm.isolate.usable) return undefined;
    // Stamped, not re-inserted to keep the map in order of use: a long-lived Map with an entry
    // deleted and added again at every execution costs a rehash every few dozen executions, and its
    // replaced tables stay linked to the new ones (src/sandbox/id-table.ts says why that costs).
    warm.lastUsed = ++this.#uses;
    return warm.isolate;
  }

  /**
   * The isolate holding the version's context, built from `code` when there is none; undefined when
   * it must be built and no code came; a failure JSON when the version cannot load (retried next time).
   */
  async get(component: string, key: string, code: ComponentCode | undefined): Promise<ComponentIsolate | string | undefined> {
    const warm = this.#versions.get(key);
    if (warm) {
      const failed = await warm.built;
      if (this.#versions.get(key) === warm) {
        if (failed === undefined && warm.isolate.usable) return this.ready(key);
        this.#drop(key, warm);
      }
      if (failed !== undefined) return failed;
    }
    if (!code) return undefined;
    const isolate = this.#isolateFor(component, code.tenant);
    const entry: WarmVersion = { isolate, built: isolate.addVersion(key, code), ready: false, lastUsed: ++this.#uses, tenant: code.tenant };
    this.#versions.set(key, entry);
    this.#evictBeyond(this.#limits.maxWarmIsolates);
    const failed = await entry.built;
    if (this.#versions.get(key) === entry) {
      if (failed === undefined) entry.ready = true;
      else this.#versions.delete(key);
    }
    return failed ?? isolate;
  }

  /**
   * A usable isolate of the component's versions of this tenant with room for one more version, or
   * a new one. A name the administrator moved to another tenant keeps its former owner's versions
   * live beside the new owner's (decisions §15): each tenant's go to isolates of its own, so neither
   * waits behind the other's loop, shares its memory limit, or has its CPU counted as the other's.
   */
  #isolateFor(component: string, tenant: string): ComponentIsolate {
    const isolates = (this.#isolates.get(component) ?? []).filter((isolate) => isolate.usable);
    let isolate = isolates.find((candidate) => candidate.tenant === tenant && candidate.versionCount < VERSIONS_PER_ISOLATE);
    if (!isolate) {
      isolate = new ComponentIsolate(tenant, this.#limits, this.#forward, (keys, stillRunning) => this.#onLost(tenant, keys, stillRunning), (ns) => this.#cpu.set(tenant, (this.#cpu.get(tenant) ?? 0n) + ns));
      isolates.push(isolate);
    }
    this.#isolates.set(component, isolates);
    return isolate;
  }

  /**
   * Reads the heap of every isolate, then, while over the byte budget, evicts the coldest version of
   * the tenant whose warm versions hold the most: a tenant's heavy versions never push another
   * tenant's light one out (the coldest first would, giving back almost nothing of the excess).
   */
  async measure(): Promise<void> {
    const isolates = this.#usableIsolates();
    const heaps = await Promise.all(isolates.map((isolate) => isolate.heapBytes()));
    this.#heapBytes = heaps.reduce((sum, bytes) => sum + bytes, 0);
    this.#heaviest = this.#heaviestOf(isolates, heaps);
    this.#count = [...this.#versions.values()].filter((warm) => warm.ready).length;
    if (this.#heapBytes <= this.#limits.warmIsolateBytes) return;
    // Each version is credited its share of its isolate's heap.
    const share = new Map(isolates.map((isolate, index) => [isolate, heaps[index]! / Math.max(1, isolate.versionCount)]));
    const coldestFirst = this.#leastRecentlyUsedFirst().filter(([, warm]) => warm.ready);
    const held = new Map<string, number>();
    for (const [, warm] of coldestFirst) held.set(warm.tenant, (held.get(warm.tenant) ?? 0) + (share.get(warm.isolate) ?? 0));
    let bytes = this.#heapBytes;
    while (bytes > this.#limits.warmIsolateBytes && held.size > 0) {
      const heaviest = [...held].reduce((most, entry) => (entry[1] > most[1] ? entry : most))[0];
      const at = coldestFirst.findIndex(([, warm]) => warm.tenant === heaviest);
      if (at === -1) {
        held.delete(heaviest);
        continue;
      }
      const [key, warm] = coldestFirst.splice(at, 1)[0]!;
      const bytesOf = share.get(warm.isolate) ?? 0;
      bytes -= bytesOf;
      held.set(heaviest, held.get(heaviest)! - bytesOf);
      this.#drop(key, warm);
    }
  }

  /** The components one of whose isolates has been running code for `ms` or longer without a break. */
  busyComponents(ms: number): string[] {
    const now = performance.now();
    const busy: string[] = [];
    for (const [component, isolates] of this.#isolates) {
      if (isolates.some((isolate) => isolate.usable && isolate.busyFor(now) >= ms)) busy.push(component);
    }
    return busy;
  }

  /** Whether one of the component's isolates has been running code without a break for `ms` now (what `busyComponents` reports). */
  isBusy(component: string, ms: number): boolean {
    const now = performance.now();
    return this.#isolates.get(component)?.some((isolate) => isolate.usable && isolate.busyFor(now) >= ms) ?? false;
  }

  /** Disposes the isolates that ran code while no execution was in them. */
  checkIdle(): void {
    for (const isolate of this.#usableIsolates()) isolate.checkIdle();
  }

  /** CPU seconds each tenant's isolates spent since the last call. */
  takeCpu(): Array<[tenant: string, seconds: number]> {
    for (const isolates of this.#isolates.values()) for (const isolate of isolates) isolate.tellCpu();
    const spent = [...this.#cpu].map(([tenant, ns]): [string, number] => [tenant, Number(ns) / 1e9]);
    this.#cpu = new Map();
    return spent;
  }

  /** The component whose isolates of one tenant held the most heap at the last measure. */
  get heaviest(): Heaviest | undefined {
    return this.#heaviest;
  }

  #heaviestOf(isolates: ComponentIsolate[], heaps: number[]): Heaviest | undefined {
    const byIsolate = new Map<ComponentIsolate, number>(isolates.map((isolate, index) => [isolate, heaps[index]!]));
    let heaviest: Heaviest | undefined;
    for (const [component, own] of this.#isolates) {
      // A moved name's two owners apart: one's heap is never the other's loss.
      const byTenant = new Map<string, number>();
      for (const isolate of own) byTenant.set(isolate.tenant, (byTenant.get(isolate.tenant) ?? 0) + (byIsolate.get(isolate) ?? 0));
      for (const [tenant, heapBytes] of byTenant) if (heaviest === undefined || heapBytes > heaviest.heapBytes) heaviest = { component, tenant, heapBytes };
    }
    return heaviest;
  }

  /** Every isolate in use (for the memory watchdog: read every few milliseconds, so no copy is made). */
  *isolates(): Iterable<ComponentIsolate> {
    for (const isolates of this.#isolates.values()) yield* isolates;
  }

  /** Warm versions, at the last measure. */
  get count(): number {
    return this.#count;
  }

  get heapBytes(): number {
    return this.#heapBytes;
  }

  #usableIsolates(): ComponentIsolate[] {
    const usable: ComponentIsolate[] = [];
    for (const [component, isolates] of this.#isolates) {
      const kept = isolates.filter((isolate) => isolate.usable);
      if (kept.length === 0) this.#isolates.delete(component);
      else this.#isolates.set(component, kept);
      usable.push(...kept);
    }
    return usable;
  }

  #evictBeyond(maxCount: number): void {
    if (this.#versions.size <= maxCount) return;
    for (const [key, warm] of this.#leastRecentlyUsedFirst()) {
      if (this.#versions.size <= maxCount) return;
      this.#drop(key, warm);
    }
  }

  /** The warm versions in order of last use, the least recent first (read when evicting: rarely). */
  #leastRecentlyUsedFirst(): Array<[string, WarmVersion]> {
    return [...this.#versions].sort(([, a], [, b]) => a.lastUsed - b.lastUsed);
  }

  /** The version leaves the warm set; its context goes once its executions end (its isolate with its last version). */
  #drop(key: string, warm: WarmVersion): void {
    this.#versions.delete(key);
    warm.isolate.removeVersion(key);
  }
}
