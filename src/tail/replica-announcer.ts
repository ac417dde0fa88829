import { randomUUID } from 'node:crypto';
import type { StorageAdapter } from '../storage/storage-adapter';
import { isDead, parseReplicaRecord, REPLICAS_FOLDER, replicaKey, type ReplicaRecord } from './replica-record';

/** Heartbeats between two passes that remove the records of replicas long gone. */
const PRUNE_EVERY = 60;

export interface AnnouncerOptions {
  /** This replica's internal base URL. */
  address: string;
  heartbeatMs: number;
  /** A heartbeat that could not be written (told once per run of failures). */
  warn(message: string): void;
}

/**
 * This replica's announcement in storage (one per process, by its main thread): written at once,
 * rewritten every heartbeat, removed when the replica drains or closes. The replicas holding tails
 * read them to find their peers (peer-directory.ts).
 */
export class ReplicaAnnouncer {
  readonly id = randomUUID();
  readonly #storage: StorageAdapter;
  readonly #options: AnnouncerOptions;
  #timer: NodeJS.Timeout | undefined;
  #beats = 0;
  #failing = false;
  #stopped = false;

  constructor(storage: StorageAdapter, options: AnnouncerOptions) {
    this.#storage = storage;
    this.#options = options;
  }

  /** Announces the replica, then again every heartbeat. */
  async start(): Promise<void> {
    await this.#beat();
    if (this.#stopped) return;
    this.#timer = setInterval(() => void this.#beat(), this.#options.heartbeatMs).unref();
  }

  /** The replica leaves: its record goes, so that no tail opens a stream to it again. */
  async stop(): Promise<void> {
    if (this.#stopped) return;
    this.#stopped = true;
    clearInterval(this.#timer);
    await this.#storage.deleteRecords([replicaKey(this.id)]).catch(() => {});
  }

  async #beat(): Promise<void> {
    const record: ReplicaRecord = { id: this.id, address: this.#options.address, heartbeat: new Date().toISOString() };
    try {
      await this.#storage.putRecord(replicaKey(this.id), Buffer.from(JSON.stringify(record)));
      // A beat that lands after the stop would bring the record back: it is removed again.
      if (this.#stopped) await this.#storage.deleteRecords([replicaKey(this.id)]);
      else if (this.#beats++ % PRUNE_EVERY === 0) await this.#prune();
      this.#failing = false;
    } catch (error) {
      if (!this.#failing) this.#options.warn(`this replica could not announce itself in storage (tails elsewhere miss its executions until it can): ${(error as Error).message}`);
      this.#failing = true;
    }
  }

  /** Removes the records of replicas that ended without removing theirs (a crash, a lost machine). */
  async #prune(): Promise<void> {
    const dead: string[] = [];
    for (const key of await this.#storage.listRecords(REPLICAS_FOLDER)) {
      const content = await this.#storage.readRecord(key);
      const record = content === undefined ? undefined : parseReplicaRecord(content);
      if (record !== undefined && isDead(record, this.#options.heartbeatMs)) dead.push(key);
    }
    if (dead.length > 0) await this.#storage.deleteRecords(dead);
  }
}
