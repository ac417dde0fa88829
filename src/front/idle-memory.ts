import type { FastifyInstance } from 'fastify';
import v8 from 'node:v8';
import vm from 'node:vm';

/** How often a front thread looks whether requests came. */
const QUIET_LOOK_MS = 1000;

/** How many looks in a row without a request make a quiet spell, after light and after busy use. */
export interface QuietSpells {
  looks: number;
  /** Answers since the last collection from which the thread counts as busy... */
  busyAnswers: number;
  /** ...and then waits this many looks: its code is optimized by then, and a collection while it is idle throws that code away (below). */
  looksAfterBusy: number;
}

const SPELLS: QuietSpells = { looks: 5, busyAnswers: 10_000, looksAfterBusy: 60 };

/**
 * Gives back the memory its start or a load grew once the front thread has been quiet for a while:
 * one full collection that also shrinks the young generation (25 to 35 ms of a thread that has
 * nothing else to do). V8's own memory reducer never does it here: it judges the allocation rate by
 * samples taken at collections, so an idle thread, which makes none, keeps the rate of the load that
 * ended ("high alloc" every 8 s) and, with it, its 32 MB of young generation and the old
 * generation's garbage (bench/FINDINGS.md, "Memory under load").
 *
 * How long: 5 to 6 s after light use (the start, a few pages); a minute after a busy spell. Any full
 * collection of an idle thread deoptimizes most of its optimized code (V8 drops the code whose
 * embedded objects, the maps and closures of requests, died with the last request: 214 pieces after
 * a rendered GET's load), so the load that came back ran its first second at half speed, and 6 s of
 * it had a p99 of 6.7 to 9.6 ms (bench/FINDINGS.md, "A quiet front's collection throws its
 * optimized code away"). A benchmark's runs of other servers, a page's visitors seconds apart, no
 * longer pay it. A thread that never stops receiving requests is never collected this way; one that
 * receives none after a release is not collected again.
 */
export function releaseMemoryWhenQuiet(app: FastifyInstance, everyMs = QUIET_LOOK_MS, spells: QuietSpells = SPELLS, collect: () => void = memoryReducingCollection): () => void {
  let answers = 0;
  const look = quietWatch(() => answers, spells, collect);
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
 * One look of the watch: `collect` once when the count has not moved for as many looks in a row as
 * `spells` asks after what it counted since the last collection (since the start, before the first),
 * and moved since then (or none was made yet). Returns whether it collected.
 */
export function quietWatch(count: () => number, spells: QuietSpells, collect: () => void): () => boolean {
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
    const since = now - (collectedAt ?? 0);
    if (++quiet < (since >= spells.busyAnswers ? spells.looksAfterBusy : spells.looks) || now === collectedAt) return false;
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
