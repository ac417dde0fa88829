/**
 * Memory an isolate takes inside one built-in call (`new Array(1e8).fill(0)` grows a dictionary to
 * gigabytes) escapes its heap limit: V8 checks the limit, and for termination, only between
 * statements, and the isolate cannot be asked for its heap while its thread runs. The host's
 * resident memory is read instead, often and cheaply: an isolate that has been running without a
 * break while the host grew by more than twice its memory limit is stopped (see
 * ComponentIsolate.checkMemory), and a host about to pass its own limit ends at once, since only the
 * end of its process takes back what such a call holds.
 */

/** How often the host's resident memory is read. */
export const WATCH_EVERY_MS = 25;

let sampled = process.memoryUsage.rss();

/** The host's resident memory at the last reading (at most WATCH_EVERY_MS old). */
export const latestRss = (): number => sampled;

/** What the watchdog checks at each reading. */
export interface WatchedIsolate {
  /** Stops the isolate when it has run without a break while the host grew past `growthBytes`; answers whether it did. */
  checkMemory(rss: number, now: number, growthBytes: number): boolean;
}

/**
 * Reads the host's resident memory every WATCH_EVERY_MS: checks each isolate against
 * `isolateGrowthBytes`, and calls `hostOver` once the host passes `hostBytes`.
 */
export function watchMemory(isolates: () => Iterable<WatchedIsolate>, isolateGrowthBytes: number, hostBytes: number, hostOver: () => void): NodeJS.Timeout {
  return setInterval(() => {
    sampled = process.memoryUsage.rss();
    const now = performance.now();
    for (const isolate of isolates()) isolate.checkMemory(sampled, now, isolateGrowthBytes);
    if (sampled > hostBytes) hostOver();
  }, WATCH_EVERY_MS).unref();
}
