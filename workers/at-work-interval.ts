/**
 * Timers of a sandbox host that matter only while its isolates run code: the memory watchdog (every
 * 25 ms) and the busy report (every 100 ms). Run on an idle host they were most of its wake-ups,
 * and of an idle registry's CPU. Each sleeps once a tick finds nothing left to watch; the start of
 * any isolate's work wakes them all, before that work reads anything they keep.
 */

const all: AtWorkInterval[] = [];
/** Isolates whose work (a call into them, a build) is under way. */
let atWork = 0;

/** An isolate's work began: every interval asleep starts again. */
export function workBegan(): void {
  atWork++;
  for (const interval of all) interval.wake();
}

/** An isolate's work ended (each `workBegan` is matched by one). */
export function workEnded(): void {
  atWork--;
}

/** Whether any isolate's work is under way. */
export const anyAtWork = (): boolean => atWork > 0;

export class AtWorkInterval {
  readonly #everyMs: number;
  /** One tick; false when nothing is left to watch, and the interval sleeps. */
  readonly #tick: () => boolean;
  /** Run on waking, before the first tick (a reading the first tick compares with). */
  readonly #onWake: () => void;
  #timer: NodeJS.Timeout | undefined;

  constructor(everyMs: number, tick: () => boolean, onWake: () => void = () => {}) {
    this.#everyMs = everyMs;
    this.#tick = tick;
    this.#onWake = onWake;
    all.push(this);
    this.wake();
  }

  get awake(): boolean {
    return this.#timer !== undefined;
  }

  wake(): void {
    if (this.#timer !== undefined) return;
    this.#onWake();
    this.#timer = setInterval(() => {
      if (this.#tick()) return;
      clearInterval(this.#timer);
      this.#timer = undefined;
    }, this.#everyMs).unref();
  }
}
