import { TesseraError } from '../errors/errors';
import type { StorageAdapter } from '../storage/storage-adapter';
import { parseRecord } from './tenant-records';

const NUMBER_DIGITS = 12;
/** Writers that can take the next entry before this one gives up: each lost race means another writer went on. */
const MAX_ATTEMPTS = 50;

interface LedgerEntry {
  /** What this entry adds (negative: given back). */
  delta: number;
  /** The running total after it. */
  total: number;
}

/**
 * A running total kept in the shared store as an append-only ledger, for quotas counted in amounts
 * (bytes, versions) rather than units: entry `<folder><n>` holds the total after it, and is written
 * only if absent. A writer reads the newest entry, checks the new total against the limit and
 * creates entry n+1; when another writer created it first, it reads again and retries. Every change
 * of the total therefore follows the one before it on every replica: two writers cannot both pass
 * the limit from the same total.
 */
export class QuotaLedger {
  readonly #storage: StorageAdapter;
  readonly #folder: string;
  /** How the total starts when the ledger has no entry yet (what was stored before it counted). */
  readonly #seed: () => Promise<number>;

  /** `folder` ends with `/`. */
  constructor(storage: StorageAdapter, folder: string, seed: () => Promise<number> = async () => 0) {
    this.#storage = storage;
    this.#folder = folder;
    this.#seed = seed;
  }

  async total(): Promise<number> {
    return (await this.#newest()).total;
  }

  /**
   * Adds `delta` unless the total would pass `limit`: answers the entry's key, or the total found
   * when it would. No limit: always added (giving back).
   */
  async add(delta: number, limit?: number): Promise<{ key: string } | { refused: true; total: number }> {
    for (let attempt = 0; attempt < MAX_ATTEMPTS; attempt++) {
      const newest = await this.#newest();
      const total = newest.total + delta;
      if (limit !== undefined && delta > 0 && total > limit) return { refused: true, total: newest.total };
      const key = `${this.#folder}${String(newest.n + 1).padStart(NUMBER_DIGITS, '0')}`;
      const entry: LedgerEntry = { delta, total };
      if (await this.#storage.createRecord(key, Buffer.from(JSON.stringify(entry)))) return { key };
    }
    throw new TesseraError('STORAGE_UNAVAILABLE', 'Too many publishes changed a quota at once; retry this one.');
  }

  async #newest(): Promise<{ n: number; total: number }> {
    const keys = await this.#storage.listRecords(this.#folder);
    const last = keys.at(-1);
    if (last === undefined) return { n: -1, total: await this.#seed() };
    const entry = parseRecord<LedgerEntry>(await this.#storage.readRecord(last));
    if (typeof entry?.total !== 'number') throw new TesseraError('STORAGE_UNAVAILABLE', `The quota record ${last} cannot be read; retry the publish.`);
    return { n: Number(last.slice(this.#folder.length)), total: entry.total };
  }
}
