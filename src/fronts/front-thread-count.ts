import type { RegistryConfig } from '../config/config';

/** Each front thread's share of an admission limit is at least this: a smaller limit means fewer threads. */
const MIN_SHARE = 8;

/**
 * The front threads a registry runs: `frontThreads`, fewer when an admission limit is too small to
 * share out (a registry allowed 2 executions of a component at once keeps one thread, and the
 * limit holds exactly, where two threads would each queue their own requests).
 */
export function frontThreadsFor(limits: RegistryConfig['limits']): number {
  const smallest = Math.min(limits.concurrentPerHost, limits.maxConcurrentPerComponent, limits.maxQueue > 0 ? limits.maxQueue : Infinity);
  return Math.max(1, Math.min(limits.frontThreads, Math.floor(smallest / MIN_SHARE)));
}
