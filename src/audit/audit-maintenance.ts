import type { StorageAdapter } from '../storage/storage-adapter';
import { parseEntry } from './audit-log';
import { dayIdOfFlatKey, keysOf, LOG, timeOfKey } from './audit-keys';

/** Keys of the log listed at once. */
const CHUNK = 1000;
const DAY_MS = 24 * 60 * 60 * 1000;
/** The log is looked after at most this often: each pass lists only its oldest keys. */
const EVERY_MS = 60 * 60 * 1000;

export interface AuditMaintenanceOptions {
  /** Entries older than this many days are deleted, from the log and its views; 0 keeps them all. */
  retentionDays: number;
  clock?: () => number;
}

/**
 * Keeps the audit log in shape (audit-keys.ts), in the process that maintains the catalog's index:
 * entries of a registry before the views are moved into the days and written in their views, and
 * entries past `retentionDays` are deleted. Each entry's views are deleted before the log's key, so
 * a pass stopped midway is finished by the next one. Replicas doing it at once write the same keys.
 */
export class AuditMaintenance {
  readonly #storage: StorageAdapter;
  readonly #retentionMs: number;
  readonly #clock: () => number;
  #due = 0;

  constructor(storage: StorageAdapter, options: AuditMaintenanceOptions) {
    this.#storage = storage;
    this.#retentionMs = options.retentionDays * DAY_MS;
    this.#clock = options.clock ?? Date.now;
  }

  /** A pass, when the last one is an hour old (called at each poll); answers how many entries it moved and deleted. */
  async run(): Promise<{ moved: number; deleted: number }> {
    const now = this.#clock();
    if (now < this.#due) return { moved: 0, deleted: 0 };
    this.#due = now + EVERY_MS;
    const moved = await this.#moveFlatEntries();
    const deleted = this.#retentionMs > 0 ? await this.#deleteBefore(now - this.#retentionMs) : 0;
    return { moved, deleted };
  }

  /** Entries without a day sort before every day (`audit/0…` < `audit/2…`): moved, a chunk at a time, until a key has its day. */
  async #moveFlatEntries(): Promise<number> {
    let moved = 0;
    // Each chunk listed after the last: a key that could not be deleted is not listed again.
    for (let after: string | undefined; ; ) {
      const flat = (await this.#storage.listRecords(LOG, after, CHUNK)).filter((key) => dayIdOfFlatKey(key) !== undefined);
      for (const key of flat) {
        const raw = await this.#storage.readRecord(key);
        const entry = raw && parseEntry(raw);
        if (raw && entry) await Promise.all(keysOf(dayIdOfFlatKey(key)!, entry).map((target) => this.#storage.putRecord(target, raw)));
      }
      await this.#storage.deleteRecords(flat);
      moved += flat.length;
      if (flat.length < CHUNK) return moved;
      after = flat.at(-1);
    }
  }

  /** Deletes the oldest entries up to `horizon`, with their views; the listing stops at the first kept one. */
  async #deleteBefore(horizon: number): Promise<number> {
    let deleted = 0;
    for (let after: string | undefined; ; ) {
      const keys = await this.#storage.listRecords(LOG, after, CHUNK);
      const expired = keys.filter((key) => (timeOfKey(key) ?? Infinity) < horizon);
      const views: string[] = [];
      for (const key of expired) {
        const raw = await this.#storage.readRecord(key);
        const entry = raw && parseEntry(raw);
        if (entry) views.push(...keysOf(key.slice(LOG.length), entry).slice(1));
      }
      await this.#storage.deleteRecords(views);
      await this.#storage.deleteRecords(expired);
      deleted += expired.length;
      if (expired.length < CHUNK) return deleted;
      after = expired.at(-1);
    }
  }
}
