/**
 * Memory an isolate takes inside one built-in call (`new Array(1e8).fill(0)` grows a dictionary to
 * gigabytes) escapes its heap limit: V8 checks the limit, and for termination, only between
 * statements, and the isolate cannot be asked for its heap while its thread runs. The host's
 * resident memory is read instead, often and cheaply (`watchMemory` says whom it stops), and a host
 * still running a lost isolate ends once past its own limit, since only the end of its process takes
 * back what such a call holds.
 */

import { AtWorkInterval, anyAtWork } from './at-work-interval';

/** How often the host's resident memory is read, while an isolate is at work. */
export const WATCH_EVERY_MS = 25;

let sampled = process.memoryUsage.rss();
let watching: AtWorkInterval | undefined;
let watched: (() => Iterable<WatchedIsolate>) | undefined;

/** The host's resident memory at the last reading (at most WATCH_EVERY_MS old); read now while the watchdog sleeps. */
export const latestRss = (): number => (watching?.awake === true ? sampled : process.memoryUsage.rss());

/** What the watchdog reads of an isolate, and how it stops one. */
export interface WatchedIsolate {
  /** How much the host grew since the isolate began its work without a break (running a call or building a version), or since it was last excused; undefined when it is not at work, or only just began. */
  growthWhileBusy(rss: number, now: number): number | undefined;
  /** What the host grew until it held `rss` is not the isolate's (`growthWhileBusy` counts from there). */
  excuse(rss: number): void;
  /** Its thread's CPU time so far (ns). */
  cpuNs(): bigint;
  /** Whether its thread sleeps in a plugin call (isolated-vm counts a task under way by the wall clock: the sleep reads as CPU time). */
  asleep(): boolean;
  /** Discards it, its executions answered MEMORY_LIMIT_EXCEEDED; `sole`: it alone was at work through the growth. */
  stopForMemory(sole: boolean): void;
  /** The tenant whose component it runs. */
  readonly tenant: string;
  /** When its work without a break began (a count of starts and ends of work, host-wide). */
  readonly busyTick: number;
  /** Whether it was at work since `tick`. */
  workedSince(tick: number): boolean;
  /** How much its heap grew since its last work began. */
  growthSinceWork(): Promise<number>;
}

/** CPU an isolate must have used since the last reading to count as running. */
const RUNNING_NS = 1_000_000n;

/**
 * An isolate of `tenant`'s was discarded for its memory (past its heap limit, or stopped here): what
 * the host grew until now was its, and is excused to the other tenants' isolates at work. Their
 * growth counted from before it would blame them for memory the discarded one took and the host has
 * not given back yet (a neighbour computing, or asleep in a plugin call, stopped for a bomb beside it).
 * A tenant's own isolates are never excused by its own discards.
 */
export function memoryDiscarded(tenant: string): void {
  if (watched === undefined) return;
  sampled = process.memoryUsage.rss();
  for (const isolate of watched()) if (isolate.tenant !== tenant) isolate.excuse(sampled);
}

/**
 * Reads the host's resident memory every WATCH_EVERY_MS and stops the isolate that took it: of the
 * isolates at work without a break while the host grew by more than `isolateGrowthBytes`, those
 * whose thread is running (an isolate asleep in a plugin call takes no memory, and what the host grows
 * while it sleeps is excused to it). One such isolate is
 * stopped at once, less what others that worked meanwhile took. Several at once cannot be told apart by the host's memory: they are left alone
 * until the host grew by twice as much, then all are stopped, and none counted lost for the growth
 * alone (an isolate is lost only if its call does not end). Past `hostBytes`, `hostOver` is called.
 */
export function watchMemory(
  isolates: () => Iterable<WatchedIsolate>,
  isolateGrowthBytes: number,
  hostBytes: number,
  hostOver: () => void,
  /** Whether to keep reading with no isolate at work (an isolate V8 could not stop may still run). */
  keepReading: () => boolean,
): AtWorkInterval {
  watched = isolates;
  const cpuAtLastReading = new WeakMap<WatchedIsolate, bigint>();
  const reviewing = new WeakSet<WatchedIsolate>();
  /**
   * The one isolate at work through the growth took it, unless isolates of other tenants worked
   * meanwhile, however briefly (quick executions are never watched): their heaps, read once they are
   * idle, explain what they took, and only what is left is its own. A tenant's own components never
   * excuse it: their heaps could hold buffers never written, which take no resident memory.
   */
  const stopUnlessExplained = (suspect: WatchedIsolate): void => {
    const others: WatchedIsolate[] = [];
    for (const isolate of isolates()) {
      if (isolate !== suspect && isolate.tenant !== suspect.tenant && isolate.workedSince(suspect.busyTick)) others.push(isolate);
    }
    if (others.length === 0) {
      suspect.stopForMemory(true);
      return;
    }
    if (reviewing.has(suspect)) return;
    reviewing.add(suspect);
    void Promise.all(others.map((isolate) => isolate.growthSinceWork())).then((grown) => {
      reviewing.delete(suspect);
      const explained = grown.reduce((sum, bytes) => sum + Math.max(0, bytes), 0);
      const growth = suspect.growthWhileBusy(latestRss(), performance.now());
      if (growth !== undefined && growth - explained > isolateGrowthBytes) suspect.stopForMemory(true);
    });
  };
  const tick = (): boolean => {
    sampled = process.memoryUsage.rss();
    const now = performance.now();
    const suspects: Array<{ isolate: WatchedIsolate; growth: number }> = [];
    for (const isolate of isolates()) {
      const growth = isolate.growthWhileBusy(sampled, now);
      // The CPU time is read only of isolates at work for a while: few, where every isolate is many.
      if (growth === undefined) {
        cpuAtLastReading.delete(isolate);
        continue;
      }
      const cpu = isolate.cpuNs();
      const before = cpuAtLastReading.get(isolate);
      cpuAtLastReading.set(isolate, cpu);
      // Asleep, it takes nothing: what the host grows meanwhile is another's. Barely running (a reading
      // between two slices of a loaded CPU, a collection's pause), it keeps what it grew so far.
      if (isolate.asleep()) isolate.excuse(sampled);
      else if (growth > isolateGrowthBytes && before !== undefined && cpu - before >= RUNNING_NS) suspects.push({ isolate, growth });
    }
    if (suspects.length === 1) stopUnlessExplained(suspects[0]!.isolate);
    else if (suspects.length > 1 && suspects.every((suspect) => suspect.growth > 2 * isolateGrowthBytes)) {
      for (const { isolate } of suspects) isolate.stopForMemory(false);
    }
    if (sampled > hostBytes) hostOver();
    return anyAtWork() || keepReading();
  };
  watching = new AtWorkInterval(WATCH_EVERY_MS, tick, () => (sampled = process.memoryUsage.rss()));
  return watching;
}
