import type { StorageSettings } from './storage-settings';

/**
 * Where published component versions live. A version is written whole: readers see all of its
 * files or none of them, and a version that exists is never overwritten.
 */
export interface StorageAdapter {
  /** What another thread builds this same storage from (a publish thread writes through its own). */
  readonly settings: StorageSettings;
  /** Names of the components that have at least one version. */
  listComponents(): Promise<string[]>;
  listVersions(name: string): Promise<string[]>;
  /** A file of a published version, or undefined when it does not exist. */
  readFile(name: string, version: string, filePath: string): Promise<Buffer | undefined>;
  /** Whether a published version has a file, without reading it. */
  hasFile(name: string, version: string, filePath: string): Promise<boolean>;
  /**
   * Writes every file of a version at once. Rejects with `ALREADY_EXISTS` when the version exists,
   * including when a concurrent writer finished first.
   */
  writeVersion(name: string, version: string, files: ReadonlyMap<string, Buffer>): Promise<void>;
  /**
   * Records beside the versions (the catalog's change journal and index, src/catalog; the audit
   * trail, src/audit), under keys of folders and a name (`changes/<minute>/<name>`). A record is written
   * whole: a reader sees all of it or none of it.
   */
  putRecord(key: string, content: Buffer): Promise<void>;
  /**
   * Writes a record only when none is under `key`, in one atomic step of the store: of writers racing
   * for one key exactly one is answered true, the others false (quota tickets, tenants, tokens).
   */
  createRecord(key: string, content: Buffer): Promise<boolean>;
  /** A record, or undefined when there is none under `key`. */
  readRecord(key: string): Promise<Buffer | undefined>;
  /**
   * Keys of the records under `folder` (`changes/`), its sub-folders' included, that sort after
   * `startAfter` (all when absent), ascending; the first `limit` only when given. Records grouped in
   * sub-folders by time are listed from a point on without the cost of what comes before it.
   */
  listRecords(folder: string, startAfter?: string, limit?: number): Promise<string[]>;
  /** Deletes records; one already gone is no error. */
  deleteRecords(keys: readonly string[]): Promise<void>;
  /** Removes what writes interrupted by a stopped process left behind; run at start. Answers how many it removed. */
  removeInterruptedWrites?(): Promise<number>;
  /** Releases connections to a remote store, if any. */
  close?(): Promise<void>;
}
