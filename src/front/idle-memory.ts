import type { FastifyInstance } from 'fastify';
import v8 from 'node:v8';
import vm from 'node:vm';

/** How often a front thread looks whether requests came, and for how many looks in a row none must have come. */
export const QUIET_LOOK_MS = 1000;
export const QUIET_LOOKS = 5;

/**
 * Gives back the memory its start or a load grew once the front thread has answered no request for
 * 5 to 6 s: one full collection that also shrinks the young generation (25 to 35 ms of a thread that has
 * nothing else to do). V8's own memory reducer never does it here: it judges the allocation rate by
 * samples taken at collections, so an idle thread, which makes none, keeps the rate of the load that
 * ended ("high alloc" every 8 s) and, with it, its 32 MB of young generation and the old
 * generation's garbage (bench/FINDINGS.md, "Memory under load"). Shorter pauses between requests
 * (a benchmark's alternating rounds of 3 s, a page's visitors a few seconds apart) keep what the
 * load grew. A thread that never stops receiving requests is never collected this way; one that
 * receives none after a release is not collected again. The first quiet spell after the start counts
 * as one after a load: the start (the catalog read, `--with-demo`'s packaging) leaves garbage too.
 */
export function releaseMemoryWhenQuiet(app: FastifyInstance, everyMs = QUIET_LOOK_MS, quietLooks = QUIET_LOOKS, collect: () => void = memoryReducingCollection): () => void {
  let answers = 0;
  const look = quietWatch(() => answers, quietLooks, collect);
  const timer = setInterval(look, everyMs).unref();
  app.addHook('onClose', (_instance, done) => {
    clearInterval(timer);
    done();
  });
  // Called by a hook every answer already runs (create-app.ts): a listener or a hook of its own would
  // add a call to every request (a second `request` listener makes Node copy its listeners each time).
  return () => void answers++;
}

/**
 * One look of the watch: `collect` once when the count has not moved for `quietLooks` looks in a
 * row and moved since the last collection (or none was made yet). Returns whether it collected.
 */
export function quietWatch(count: () => number, quietLooks: number, collect: () => void): () => boolean {
  let seen = count();
  let quiet = 0;
  let collectedAt: number | undefined;
  return () => {
    const now = count();
    if (now !== seen) {
      seen = now;
      quiet = 0;
      return false;
    }
    if (++quiet < quietLooks || now === collectedAt) return false;
    collectedAt = now;
    collect();
    return true;
  };
}

let gc: ((options: object) => void) | undefined;

/**
 * V8's collection of last resort (what it runs before it gives up on an allocation): full, and
 * memory-reducing. Reached through the `gc` of one context made while `--expose-gc` is set, and unset
 * at once: no other context of the process (the registry's own, the packager's isolates of
 * `--with-demo` and `tessera dev`) gets a `gc` global. The flag is the process's: when another front
 * thread unset it between our setting it and our context, that context has no `gc`, and this thread
 * tries again at its next quiet spell.
 */
export function memoryReducingCollection(): void {
  gc ??= exposedGc();
  gc?.({ type: 'major', execution: 'sync', flavor: 'last-resort' });
}

function exposedGc(): ((options: object) => void) | undefined {
  v8.setFlagsFromString('--expose-gc');
  try {
    return vm.runInNewContext('typeof gc === "function" ? gc : undefined') as ((options: object) => void) | undefined;
  } finally {
    v8.setFlagsFromString('--no-expose-gc');
  }
}
