import type { ExecutionRecord } from './execution-record';
import type { TailControl, TailHub } from './tail-hub';
import { MAIN_FRONT, TailRoster } from './tail-roster';

/** How the main thread reaches its front threads (src/fronts/front-threads.ts). */
export interface TailFronts {
  /** Tells every front thread which watchers have tails open. */
  watched(entries: Array<[string, number]>): void;
  /** Hands a record to these front threads' hubs. */
  relay(record: ExecutionRecord, fronts: number[]): void;
}

/**
 * The main thread's side of the process's tails: it admits them (its roster bounds each tenant's),
 * tells every hub which tenants are watched before a tail's opening is answered, and gathers each
 * front's records and fans them out to the fronts whose tails may see them.
 */
export class MainTails implements TailControl {
  readonly #hub: TailHub;
  readonly #roster: TailRoster;
  #fronts: TailFronts | undefined;

  constructor(hub: TailHub, maxPerTenant: number) {
    this.#hub = hub;
    this.#roster = new TailRoster(maxPerTenant);
    hub.connect(this);
  }

  /** The front threads, once started. */
  reachFronts(fronts: TailFronts): void {
    this.#fronts = fronts;
  }

  admit(watcher: string): Promise<boolean> {
    return Promise.resolve(this.admitFor(MAIN_FRONT, watcher));
  }

  release(watcher: string): void {
    this.releaseFor(MAIN_FRONT, watcher);
  }

  forward(record: ExecutionRecord): void {
    this.forwardFrom(MAIN_FRONT, record);
  }

  admitFor(front: number, watcher: string): boolean {
    if (!this.#roster.admit(front, watcher)) return false;
    this.#tell();
    return true;
  }

  releaseFor(front: number, watcher: string): void {
    this.#roster.release(front, watcher);
    this.#tell();
  }

  /** A front thread ended, and its tails with it. */
  frontEnded(front: number): void {
    this.#roster.dropFront(front);
    this.#tell();
  }

  /** A record from `front`: to the main thread's tails (unless it is its own), and to the other fronts' that may see it. */
  forwardFrom(front: number, record: ExecutionRecord): void {
    if (front !== MAIN_FRONT) this.#hub.deliver(record);
    const fronts = this.#roster.frontsFor(record, front).filter((other) => other !== MAIN_FRONT);
    if (fronts.length > 0) this.#fronts?.relay(record, fronts);
  }

  #tell(): void {
    const entries = this.#roster.watched();
    this.#hub.setWatched(entries);
    this.#fronts?.watched(entries);
  }
}
