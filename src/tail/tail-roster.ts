import type { ExecutionRecord } from './execution-record';
import { EVERY_TENANT } from './tail-views';

/** The main thread's own front. */
export const MAIN_FRONT = 0;

/**
 * The tails open in the whole process, by front thread and by watcher: what bounds a tenant's
 * tails (however many front threads they reached), and which fronts an execution's record goes to.
 * The main thread's alone.
 */
export class TailRoster {
  readonly #maxPerWatcher: number;
  readonly #byFront = new Map<number, Map<string, number>>();
  readonly #totals = new Map<string, number>();

  constructor(maxPerWatcher: number) {
    this.#maxPerWatcher = maxPerWatcher;
  }

  /** Counts a tail of `watcher` open on `front`, unless its bound is reached. */
  admit(front: number, watcher: string): boolean {
    const total = this.#totals.get(watcher) ?? 0;
    if (total >= this.#maxPerWatcher) return false;
    this.#totals.set(watcher, total + 1);
    const counts = this.#byFront.get(front) ?? new Map<string, number>();
    counts.set(watcher, (counts.get(watcher) ?? 0) + 1);
    this.#byFront.set(front, counts);
    return true;
  }

  release(front: number, watcher: string): void {
    const counts = this.#byFront.get(front);
    const count = counts?.get(watcher);
    if (!counts || count === undefined) return;
    if (count > 1) counts.set(watcher, count - 1);
    else counts.delete(watcher);
    const total = this.#totals.get(watcher)! - 1;
    if (total > 0) this.#totals.set(watcher, total);
    else this.#totals.delete(watcher);
  }

  /** A front thread ended: its tails ended with it. */
  dropFront(front: number): void {
    for (const [watcher, count] of this.#byFront.get(front) ?? []) for (let i = 0; i < count; i++) this.release(front, watcher);
    this.#byFront.delete(front);
  }

  /** Tails open in the process, by watcher. */
  watched(): Array<[string, number]> {
    return [...this.#totals];
  }

  /** The fronts with a tail that may see the record, but `except`. */
  frontsFor(record: ExecutionRecord, except: number): number[] {
    const fronts: number[] = [];
    for (const [front, counts] of this.#byFront) {
      if (front === except || counts.size === 0) continue;
      if (counts.has(EVERY_TENANT) || counts.has(record.tenant) || (record.caller !== undefined && counts.has(record.caller.tenant))) fronts.push(front);
    }
    return fronts;
  }
}
