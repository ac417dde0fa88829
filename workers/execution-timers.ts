/**
 * The timers that bound an execution in its isolate, and what each does when it fires (the isolate
 * says how, through `TimerActions`): its deadline, the time a let-go execution may still run, and the
 * grace a cancelled one gets. Every execution enters through isolated-vm's asynchronous API, so the
 * host's own thread never waits on tenant code and these always fire.
 */

/**
 * The longest delay Node timers and isolated-vm timeouts accept (about 24.8 days); a configured
 * limit beyond it (a benchmark lifting the limits) means "no limit" and is held at this.
 */
const LONGEST_MS = 2 ** 31 - 1;
/** How long a cancelled execution that is still running gets to finish before its isolate goes. */
const CANCEL_GRACE_MS = 50;

/** A delay as timers take it: whole milliseconds, at least one, at most LONGEST_MS. */
export const bounded = (ms: number): number => Math.min(Math.max(1, Math.ceil(ms)), LONGEST_MS);

/**
 * The grid the time limits of entries into an isolate fall due on. isolated-vm keeps each entry's
 * `timeout` in the queue of its own timer thread until it falls due, finished or not, and that
 * thread wakes for each one: an entry whose limit is rounded up to the grid falls due with the
 * others of its slot, and the thread wakes once for them, not once for every entry (some 2,800
 * times a second under 37k rendered GETs). Code an entry runs on past its limit is stopped at most
 * this much later; the execution is answered at its deadline regardless (`deadline`).
 */
export const ENTRY_GRID_MS = 25;

/** An entry's `timeout` for a limit of `ms` from now: its deadline rounded up to the grid, whole milliseconds. */
export function onEntryGrid(ms: number, now = performance.now()): number {
  return bounded(Math.ceil((now + ms) / ENTRY_GRID_MS) * ENTRY_GRID_MS - now);
}

/** Resolves `fallback()` after `ms` unless `promise` settles first; the timer never outlives the race. */
export async function within<T>(promise: Promise<T>, ms: number, fallback: () => T): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<T>((resolve) => {
    timer = setTimeout(() => resolve(fallback()), bounded(ms));
  });
  try {
    return await Promise.race([promise, late]);
  } finally {
    clearTimeout(timer);
  }
}

/**
 * An execution's deadline. Only an execution's own full limit, passed, discards the isolate
 * (`ownLimitPassed`); one that came with less (its caller's budget was nearly spent, or building the
 * version took part of it) is answered at its deadline (`expired`) and the isolate, other visitors'
 * work, is kept (decisions §13).
 */
export function deadline(timeoutMs: number, ownLimit: boolean, ownLimitPassed: () => void, expired: () => void): NodeJS.Timeout {
  return setTimeout(() => (ownLimit ? ownLimitPassed() : expired()), bounded(timeoutMs));
}

/**
 * How long an execution whose caller was let go may still run: its call's own time limit stops its
 * code without discarding the isolate; `passed` then decides (the isolate goes only if its code
 * still runs at its own full limit from now).
 */
export function linger(ownLimitMs: number, passed: () => void): NodeJS.Timeout {
  return setTimeout(passed, bounded(ownLimitMs));
}

/** The grace a cancelled execution still running gets before `passed` (its isolate may go then). */
export function cancelGrace(passed: () => void): NodeJS.Timeout {
  return setTimeout(passed, CANCEL_GRACE_MS).unref();
}
