import type { StorageAdapter } from '../storage/storage-adapter';
import { livePeers } from './peer-directory';
import type { PeerFanIn } from './peer-fan-in';

export interface PeerTailsOptions {
  storage: StorageAdapter;
  heartbeatMs: number;
  /** This replica's internal address once it listens; none: its tails stay local. */
  ownAddress(): string | undefined;
  /** The replicas' records could not be read (told once per run of failures). */
  warn(message: string): void;
}

/**
 * A front thread's tails that gather from the other replicas: while one is open, the replicas'
 * records are read at once for a tail that opens, then every heartbeat for all of them, and each
 * tail's peer streams follow the replicas that join and leave. With none open, nothing is read.
 */
export class PeerTails {
  readonly #options: PeerTailsOptions;
  readonly #fanIns = new Set<PeerFanIn>();
  #timer: NodeJS.Timeout | undefined;
  #looking = false;
  #failing = false;

  constructor(options: PeerTailsOptions) {
    this.#options = options;
  }

  /** Whether this replica's tails gather from its peers: it has an internal address to be told apart by. */
  get enabled(): boolean {
    return this.#options.ownAddress() !== undefined;
  }

  add(fanIn: PeerFanIn): void {
    this.#fanIns.add(fanIn);
    this.#timer ??= setInterval(() => void this.#look([...this.#fanIns]), this.#options.heartbeatMs).unref();
    void this.#look([fanIn], true);
  }

  remove(fanIn: PeerFanIn): void {
    this.#fanIns.delete(fanIn);
    if (this.#fanIns.size > 0) return;
    clearInterval(this.#timer);
    this.#timer = undefined;
  }

  /** Reads the records and tells `fanIns` the live peers; a heartbeat's look is skipped while one is under way. */
  async #look(fanIns: PeerFanIn[], always = false): Promise<void> {
    const own = this.#options.ownAddress();
    if (own === undefined || (this.#looking && !always)) return;
    this.#looking = true;
    try {
      const peers = await livePeers(this.#options.storage, own, this.#options.heartbeatMs);
      for (const fanIn of fanIns) if (this.#fanIns.has(fanIn)) fanIn.reconcile(peers);
      this.#failing = false;
    } catch (error) {
      // The streams open stay as they are until the records can be read again.
      if (!this.#failing) this.#options.warn(`the replicas' records could not be read; tails keep the peers they have: ${(error as Error).message}`);
      this.#failing = true;
    } finally {
      this.#looking = false;
    }
  }
}
