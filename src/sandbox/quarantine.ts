/**
 * Versions that keep losing their isolate to V8 (each loss costs a whole host recycle) are refused
 * for a while instead of being run again.
 */
export class Quarantine {
  readonly #maxLosses: number;
  readonly #windowMs: number;
  readonly #forMs: number;
  /** Recent losses per version key (only versions that lost one are kept). */
  readonly #losses = new Map<string, number[]>();
  readonly #until = new Map<string, number>();

  constructor(maxLosses: number, windowMs: number, forMs: number) {
    this.#maxLosses = maxLosses;
    this.#windowMs = windowMs;
    this.#forMs = forMs;
  }

  record(key: string): void {
    const now = performance.now();
    const recent = (this.#losses.get(key) ?? []).filter((at) => now - at < this.#windowMs);
    recent.push(now);
    this.#losses.set(key, recent);
    if (recent.length >= this.#maxLosses) {
      this.#until.set(key, now + this.#forMs);
      this.#losses.delete(key);
    }
  }

  /** Seconds the version stays refused, or 0. */
  secondsLeft(key: string): number {
    const until = this.#until.get(key);
    if (until === undefined) return 0;
    const left = until - performance.now();
    if (left > 0) return Math.ceil(left / 1000);
    this.#until.delete(key);
    return 0;
  }
}
