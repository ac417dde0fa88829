import type { StorageAdapter } from '../storage/storage-adapter';

const NUMBER_DIGITS = 6;

/**
 * Counted units of a quota as create-only records, one per unit: `<folder><period>-<n>` for n below
 * the limit. Taking a unit writes the first free n only if absent, so two replicas at the last
 * unit race for one key and exactly one gets it. A unit of a publish that did not store its version
 * is given back (deleted); the records of past periods are removed when a period's first unit is taken.
 */
export class QuotaTickets {
  readonly #storage: StorageAdapter;
  readonly #folder: string;

  /** `folder` ends with `/` (`quota/<tenant>/publishes/`). */
  constructor(storage: StorageAdapter, folder: string) {
    this.#storage = storage;
    this.#folder = folder;
  }

  /** Units taken in `period`. */
  async used(period: string): Promise<number> {
    return (await this.#taken(period)).length;
  }

  /** Takes a unit of `period` below `limit`: answers its key, or undefined when every unit is taken. */
  async take(period: string, limit: number, content: Buffer): Promise<string | undefined> {
    const taken = new Set(await this.#taken(period));
    for (let n = 0; n < limit; n++) {
      const key = `${this.#folder}${period}-${String(n).padStart(NUMBER_DIGITS, '0')}`;
      if (taken.has(key) || !(await this.#storage.createRecord(key, content))) continue;
      if (n === 0) await this.#prune(period);
      return key;
    }
    return undefined;
  }

  async giveBack(key: string): Promise<void> {
    await this.#storage.deleteRecords([key]);
  }

  async #taken(period: string): Promise<string[]> {
    const prefix = `${this.#folder}${period}-`;
    // Keys of this period sort right after `<period>`, before any later period's.
    return (await this.#storage.listRecords(this.#folder, `${this.#folder}${period}`)).filter((key) => key.startsWith(prefix));
  }

  async #prune(period: string): Promise<void> {
    const old = (await this.#storage.listRecords(this.#folder)).filter((key) => key < `${this.#folder}${period}`);
    await this.#storage.deleteRecords(old);
  }
}
