import type { ExecutionRecord } from './execution-record';
import { EVERY_TENANT, viewFor, type TailView } from './tail-views';

/** One open tail, as the hub sees it: whose executions it watches, and what it does with each. */
export interface TailSubscriber {
  /** A tenant, or EVERY_TENANT for the administrator's. */
  readonly watcher: string;
  /** An execution it may see, as it may see it. */
  offer(view: TailView, record: ExecutionRecord): void;
  /** Whether its token is still live (checked after each read of the tenants and tokens). */
  stillAllowed(): boolean;
  /** Ends it: its token was revoked, or the registry drains or closes. */
  end(code: 'UNAUTHORIZED' | 'NOT_READY', sentence: string): void;
}

/**
 * How a front thread's hub reaches the process's other fronts: the main thread admits every tail of
 * the process (its bound per tenant), tells every hub which tenants are watched, and carries each
 * execution's record to the hubs with a tail that may see it.
 */
export interface TailControl {
  /** Counts a tail of `watcher` open, unless the tenant has its bound of tails open already. */
  admit(watcher: string): Promise<boolean>;
  release(watcher: string): void;
  /** An execution recorded on this front, for the tails of the process's other fronts. */
  forward(record: ExecutionRecord): void;
}

/** Records held behind one whose frames are being mapped (at most a few seconds' worth): past this, they go out unordered. */
const MAX_HELD = 1024;

/**
 * The tails of one front thread, and which tenants the tails of the whole process watch. With none
 * watched, `watches` is one look at an empty map: an execution then builds no record, asks its
 * isolate for no console line, and costs nothing more than before.
 */
export class TailHub {
  /** Tails open in the process, by watcher (the main thread's roster tells every hub). */
  #watched: ReadonlyMap<string, number> = new Map();
  readonly #subscribers = new Set<TailSubscriber>();
  #control: TailControl | undefined;
  /** Records made after one still waiting to be published (publishWhen), each held until those before it are out; the first holds none. */
  readonly #held: Array<{ record: ExecutionRecord | undefined }> = [];

  /** The main thread's control, or a front thread's way to it: set once wired. */
  connect(control: TailControl): void {
    this.#control = control;
  }

  /** Whether any tail of the process may see an execution of `tenant`'s components. */
  watches(tenant: string): boolean {
    return this.#watched.size > 0 && (this.#watched.has(tenant) || this.#watched.has(EVERY_TENANT));
  }

  /** The roster changed: these watchers have tails open in the process. */
  setWatched(entries: ReadonlyArray<[string, number]>): void {
    this.#watched = new Map(entries);
  }

  /** An execution recorded on this front: to its tails, and to the process's other fronts, after those recorded before it. */
  publish(record: ExecutionRecord): void {
    // Past MAX_HELD a record goes out at once, ahead of an exception still being mapped: order gives way to bounded memory.
    if (this.#held.length > 0 && this.#held.length < MAX_HELD) this.#held.push({ record });
    else this.#send(record);
  }

  /**
   * A record published once `ready` answers it (its exception's frames mapped, at most a few seconds:
   * src/tail/source-map-frames.ts); those recorded after it wait for it, so every tail gets them in
   * the order they were recorded. `ready` never rejects.
   */
  publishWhen(ready: Promise<ExecutionRecord>): void {
    if (this.#held.length >= MAX_HELD) {
      void ready.then((record) => this.#send(record));
      return;
    }
    const slot: { record: ExecutionRecord | undefined } = { record: undefined };
    this.#held.push(slot);
    void ready.then((record) => {
      slot.record = record;
      while (this.#held[0]?.record !== undefined) this.#send(this.#held.shift()!.record!);
    });
  }

  #send(record: ExecutionRecord): void {
    this.deliver(record);
    this.#control?.forward(record);
  }

  /** An execution recorded on this front or another: to each of this front's tails that may see it. */
  deliver(record: ExecutionRecord): void {
    for (const subscriber of this.#subscribers) {
      const view = viewFor(subscriber.watcher, record);
      if (view) subscriber.offer(view, record);
    }
  }

  /** Opens a tail; false when its tenant has its bound of tails open in the process already. */
  async open(subscriber: TailSubscriber): Promise<boolean> {
    if (!this.#control || !(await this.#control.admit(subscriber.watcher))) return false;
    this.#subscribers.add(subscriber);
    return true;
  }

  close(subscriber: TailSubscriber): void {
    if (!this.#subscribers.delete(subscriber)) return;
    this.#control?.release(subscriber.watcher);
  }

  /** Tenants and tokens were read again: a tail whose token was revoked meanwhile ends. */
  recheck(): void {
    for (const subscriber of [...this.#subscribers]) {
      if (!subscriber.stillAllowed()) subscriber.end('UNAUTHORIZED', 'The token of this tail was revoked.');
    }
  }

  /** The registry drains or closes: every tail ends, telling its reader to connect again elsewhere. */
  endAll(): void {
    for (const subscriber of [...this.#subscribers]) subscriber.end('NOT_READY', 'This registry is draining; connect again to reach another replica.');
  }

  get size(): number {
    return this.#subscribers.size;
  }
}
