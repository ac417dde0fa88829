import semver from 'semver';
import { TesseraError } from '../errors/errors';
import type { StorageAdapter } from '../storage/storage-adapter';
import { cursorOfIndex, INDEX_FORMAT, listIndexes, readNewestIndex, writeIndex, type CatalogSnapshot } from './catalog-index';
import { ChangeJournal, WINDOW_MS } from './change-journal';
import { ComponentVersion } from './component-version';
import { writeJournaled } from './journaled-write';
import { writeDeprecation, writeUnpublished, type Deprecation, type UnpublishRecord } from './lifecycle-records';
import { PublishedVersions } from './published-versions';
import { readStoredVersion } from './read-stored-version';
import { VersionLifecycles } from './version-lifecycles';

/** Told when a stored version cannot be read (once per version until it reads again). */
export type UnreadableVersionListener = (id: string, reason: string) => void;

export interface CatalogOptions {
  onUnreadable?: UnreadableVersionListener;
  /** Told what the catalog did about its own records that an operator may want to know (a full listing, an index it could not write). */
  onNotice?: (message: string) => void;
  /** Told each version that leaves the catalog (unpublished), once it is gone. */
  onDropped?: (name: string, version: string) => void;
  /**
   * Whether this catalog writes the index (at its start when storage has none, then every
   * `indexEvery` changes, or `indexMaxAgeMs` after the first change it does not hold) and prunes
   * the journal: one catalog per process (not front threads).
   */
  maintainsIndex?: boolean;
  /** Changes read since the newest index (versions added, lifecycle changes) after which a new one is written. Default 1000. */
  indexEvery?: number;
  /** How long a change waits, at most, for an index that holds it (and for the pruning behind it). Default ten minutes. */
  indexMaxAgeMs?: number;
  /** Journal entries are kept this long behind the newest index. Default fifteen minutes. */
  journalRetentionMs?: number;
  /** The journal's clock (tests); `Date.now` by default. */
  clock?: () => number;
}

/**
 * Journal entries are kept this long behind the newest index: a replica whose cursor fell further
 * behind (storage out of reach) reloads the index. Every replica must judge with the same figure.
 */
const JOURNAL_RETENTION_MS = 15 * 60 * 1000;

/** Versions read from storage at once, when listing it whole or reading a burst of publishes. */
const PARALLEL_READS = 16;

/**
 * The in-memory index of published components over the storage adapter (see docs/explanation/catalog-journal-and-index.md). At start it reads the newest index in storage (one object of
 * summaries) and the change journal since; a storage without an index (written by a registry that
 * had none) is listed and read whole, once, and indexed. Each refresh then lists the journal from
 * its cursor and reads only the versions it does not know: its cost follows the publishes, not the
 * size of the catalog nor the length of the journal. The process's maintaining catalog writes a new
 * index after `indexEvery` changes of either kind, or once the first change it does not hold is
 * `indexMaxAgeMs` old, and prunes the journal behind it. A version that cannot be read is skipped (decisions §12) and tried again at
 * each refresh; it never stops the others from loading.
 *
 * Lifecycle changes (unpublish, deprecate; lifecycle-records.ts) come through the same journal: an
 * entry of kind `lifecycle` makes each reader read that version's records again. An unpublished
 * version leaves the in-memory versions (expressions resolve to the others) and answers GONE when
 * asked for exactly.
 */
export class Catalog {
  readonly #storage: StorageAdapter;
  readonly #journal: ChangeJournal;
  readonly #versions = new PublishedVersions();
  readonly #lifecycles: VersionLifecycles;
  /** Lifecycle entries applied, by key → time: the journal lists entries again for a while (its window). */
  readonly #appliedLifecycle = new Map<string, number>();
  /** `name@version` (or `name` when its versions cannot be listed) → why it was skipped; retried at each refresh. */
  readonly #unreadable = new Map<string, string>();
  readonly #onUnreadable: UnreadableVersionListener;
  readonly #onNotice: (message: string) => void;
  readonly #onDropped: (name: string, version: string) => void;
  /**
   * The publisher recorded by the last version of each component unpublished while this catalog ran
   * (undefined: none recorded): the cookies a visitor keeps of a component gone from the catalog are
   * still its tenant's (their names outlive it, up to a week).
   */
  readonly #formerPublishers = new Map<string, string | undefined>();
  readonly #maintainsIndex: boolean;
  readonly #indexEvery: number;
  readonly #indexMaxAgeMs: number;
  readonly #retentionMs: number;
  readonly #clock: () => number;
  /** The newest journal time read; undefined until the catalog is loaded. */
  #cursor: number | undefined;
  #loading: Promise<void> | undefined;
  /** The cursor of the newest index known to be in storage. */
  #indexCursor = 0;
  /** Changes read since that index (versions added, lifecycle entries applied), and when the first of them was read. */
  #changesSinceIndex = 0;
  #firstChangeAt = 0;

  constructor(storage: StorageAdapter, options: CatalogOptions = {}) {
    this.#storage = storage;
    this.#clock = options.clock ?? Date.now;
    this.#journal = new ChangeJournal(storage, this.#clock);
    this.#lifecycles = new VersionLifecycles(storage);
    this.#onUnreadable = options.onUnreadable ?? (() => {});
    this.#onNotice = options.onNotice ?? (() => {});
    this.#onDropped = options.onDropped ?? (() => {});
    this.#maintainsIndex = options.maintainsIndex ?? false;
    this.#indexEvery = options.indexEvery ?? 1000;
    this.#indexMaxAgeMs = options.indexMaxAgeMs ?? 10 * 60 * 1000;
    this.#retentionMs = options.journalRetentionMs ?? JOURNAL_RETENTION_MS;
  }

  /** Stored versions skipped because they cannot be read, at the last refresh. */
  get unreadableCount(): number {
    return this.#unreadable.size;
  }

  /** Versions indexed. */
  get size(): number {
    return this.#versions.size;
  }

  /**
   * Loads the catalog on the first call, then reads what the journal says changed; safe to call
   * repeatedly. Only a storage that cannot be listed at all fails it.
   */
  async refresh(): Promise<void> {
    if (this.#cursor === undefined) {
      this.#loading ??= this.#load().finally(() => (this.#loading = undefined));
      await this.#loading;
    }
    const before = this.#cursor!;
    let newest = before;
    const unknown = [];
    const lifecycle = [];
    for (const entry of await this.#journal.since(before)) {
      newest = Math.max(newest, entry.time);
      const id = `${entry.name}@${entry.version}`;
      if (entry.kind === 'lifecycle') {
        if (!this.#appliedLifecycle.has(entry.key)) lifecycle.push(entry);
      } else if (!this.#versions.has(entry.name, entry.version) && !this.#unreadable.has(id)) unknown.push(entry);
    }
    // A version not in storage yet is a publish still under way: its entry is listed again next time.
    await forEachAtOnce(unknown, PARALLEL_READS, (entry) => this.#tryIndex(`${entry.name}@${entry.version}`, () => this.#index(entry.name, entry.version)));
    // After the publishes: a version published and deprecated within one poll ends deprecated. A
    // record that cannot be read now is tried again at the next poll (its entry is not marked applied).
    await forEachAtOnce(lifecycle, PARALLEL_READS, async (entry) => {
      await this.#reloadLifecycle(entry.name, entry.version);
      this.#appliedLifecycle.set(entry.key, entry.time);
      this.#countChange();
    });
    for (const [key, time] of this.#appliedLifecycle) if (time < newest - 2 * WINDOW_MS) this.#appliedLifecycle.delete(key);
    // Listed after the journal: an index written meanwhile may have pruned entries this reader had yet to see.
    const indexes = await listIndexes(this.#storage);
    const newestIndex = indexes.length > 0 ? cursorOfIndex(indexes.at(-1)!) : 0;
    if (newestIndex - this.#retentionMs > before - WINDOW_MS) await this.#reloadIndex();
    if (newestIndex > this.#indexCursor) {
      this.#indexCursor = newestIndex;
      this.#changesSinceIndex = 0;
    }
    this.#cursor = Math.max(newest, this.#cursor!);
    await this.#retryUnreadable();
    if (this.#maintainsIndex && this.#indexIsDue()) await this.#writeIndex();
  }

  /**
   * Lifecycle changes count as versions do: a tenant that only deprecates and undoes still gets its
   * entries compacted into an index and pruned, by their number or by the age of the first.
   */
  #indexIsDue(): boolean {
    if (this.#changesSinceIndex === 0) return false;
    return this.#changesSinceIndex >= this.#indexEvery || this.#clock() - this.#firstChangeAt >= this.#indexMaxAgeMs;
  }

  #countChange(): void {
    if (this.#changesSinceIndex === 0) this.#firstChangeAt = this.#clock();
    this.#changesSinceIndex += 1;
  }

  /**
   * Indexes one version from storage (published here, or told by another front thread that it was
   * published or its lifecycle changed), its lifecycle read again; rejects when it cannot be read.
   * Answers undefined for a version unpublished.
   */
  async add(name: string, version: string): Promise<ComponentVersion | undefined> {
    if (!semver.valid(version)) return undefined;
    if (await this.#reloadLifecycle(name, version)) return undefined;
    if (!this.#versions.has(name, version) && !(await this.#index(name, version))) throw new Error(`${name}@${version} has no package.json in storage.`);
    this.#unreadable.delete(`${name}@${version}`);
    return this.#versions.get(name, version);
  }

  /**
   * Stores a version and indexes it: its journal entry is written first, so that other replicas
   * find it at their next poll once it is stored (see ChangeJournal), and withdrawn when storage
   * refuses the version. Rejects as storage does (`ALREADY_EXISTS` when the version exists).
   */
  async publish(name: string, version: string, files: ReadonlyMap<string, Buffer>): Promise<ComponentVersion | undefined> {
    await writeJournaled(this.#storage, this.#journal, name, version, files, this.#onNotice);
    return this.add(name, version);
  }

  names(): readonly string[] {
    return this.#versions.names();
  }

  /** Published versions of a component, ascending; empty when unknown. */
  versions(name: string): readonly string[] {
    return this.#versions.versions(name);
  }

  /** The publisher recorded by the last version of `name` unpublished here, when the catalog has none of it now; null when it recorded none; undefined when unknown. */
  formerPublisher(name: string): string | null | undefined {
    if (this.#versions.latest(name) !== undefined || !this.#formerPublishers.has(name)) return undefined;
    return this.#formerPublishers.get(name) ?? null;
  }

  latest(name: string): ComponentVersion | undefined {
    return this.#versions.latest(name);
  }

  /** The version an expression names; GONE for an unpublished version asked for exactly, else NOT_FOUND naming what is missing. */
  resolve(name: string, expression: string): ComponentVersion {
    if (this.#lifecycles.isUnpublished(name, expression)) {
      throw new TesseraError('GONE', `${name}@${expression} was unpublished; other versions: ${this.versions(name).join(', ') || 'none'}.`);
    }
    return this.#versions.resolve(name, expression);
  }

  isUnpublished(name: string, version: string): boolean {
    return this.#lifecycles.isUnpublished(name, version);
  }

  /** The deprecation of a version, when it is deprecated. */
  deprecationOf(name: string, version: string): Deprecation | undefined {
    return this.#lifecycles.deprecationOf(name, version);
  }

  /**
   * Creates the tombstone of a version (every replica drops it at its next poll) and drops it here.
   * Answers false when another request or replica unpublished it first: the version is gone all the same.
   */
  async unpublish(name: string, version: string, record: UnpublishRecord): Promise<boolean> {
    const created = await writeUnpublished(this.#storage, this.#journal, name, version, record);
    await this.#reloadLifecycle(name, version);
    return created;
  }

  /** Deprecates a version (undefined: no longer), for every replica at its next poll, and here now. */
  async deprecate(name: string, version: string, deprecation: Deprecation | undefined): Promise<void> {
    await writeDeprecation(this.#storage, this.#journal, name, version, deprecation);
    await this.#reloadLifecycle(name, version);
  }

  /** Reads a version's lifecycle records again; an unpublished version leaves the catalog. Answers whether it is unpublished. */
  async #reloadLifecycle(name: string, version: string): Promise<boolean> {
    if (!(await this.#lifecycles.reload(name, version))) return false;
    this.#drop(`${name}@${version}`);
    return true;
  }

  /** Reads every lifecycle record (at load, and with an index after a long gap) and drops the unpublished versions. */
  async #loadLifecycles(): Promise<void> {
    for (const id of await this.#lifecycles.loadAll()) this.#drop(id);
  }

  #drop(id: string): void {
    const at = id.lastIndexOf('@');
    const dropped = this.#versions.get(id.slice(0, at), id.slice(at + 1));
    if (dropped) this.#formerPublishers.set(dropped.name, dropped.descriptor.oc.publisher?.tenant);
    this.#versions.remove(id.slice(0, at), id.slice(at + 1));
    this.#unreadable.delete(id);
    this.#onDropped(id.slice(0, at), id.slice(at + 1));
  }

  /** The newest index, else (storage written without one, or with one of another format) every stored version, read once and indexed. */
  async #load(): Promise<void> {
    const found = await readNewestIndex(this.#storage);
    if ('snapshot' in found) {
      this.#adopt(found.snapshot);
      await this.#loadLifecycles();
      this.#cursor = found.snapshot.cursor;
      return;
    }
    const journal = await this.#journal.since(undefined);
    const cursor = journal.reduce((newest, entry) => Math.max(newest, entry.time), 0);
    await this.#readEverything();
    await this.#loadLifecycles();
    this.#cursor = cursor;
    if (this.#versions.size + this.#unreadable.size === 0) return;
    this.#onNotice(`listed and read every stored version once (${found.missing}): ${this.#versions.size} indexed, ${this.#unreadable.size} unreadable`);
    if (this.#maintainsIndex) await this.#writeIndex(found.replace);
  }

  /** Adds an index's versions not held yet; its unreadable versions are tried at the next refresh. */
  #adopt(snapshot: CatalogSnapshot): void {
    const kept = snapshot.versions.filter((summary) => !this.#lifecycles.isUnpublished(summary.name, summary.version));
    this.#versions.add(kept.map((summary) => new ComponentVersion(summary, this.#storage)));
    for (const id of snapshot.unreadable) if (!this.#unreadable.has(id)) this.#unreadable.set(id, '');
    this.#indexCursor = Math.max(this.#indexCursor, snapshot.cursor);
  }

  /** After a long gap (the journal was pruned past this reader's cursor): the newest index fills it. */
  async #reloadIndex(): Promise<void> {
    const found = await readNewestIndex(this.#storage);
    if ('snapshot' in found) this.#adopt(found.snapshot);
    await this.#loadLifecycles();
  }

  async #readEverything(): Promise<void> {
    const versions: Array<{ name: string; version: string }> = [];
    await forEachAtOnce(await this.#storage.listComponents(), PARALLEL_READS, async (name) => {
      await this.#tryIndex(name, async () => {
        for (const version of await this.#storage.listVersions(name)) if (semver.valid(version)) versions.push({ name, version });
        return true;
      });
    });
    await forEachAtOnce(versions, PARALLEL_READS, ({ name, version }) => this.#tryIndex(`${name}@${version}`, () => this.#indexListed(name, version)));
  }

  /** Tries the unreadable versions (and components whose versions could not be listed) again. */
  async #retryUnreadable(): Promise<void> {
    await forEachAtOnce([...this.#unreadable.keys()], PARALLEL_READS, async (id) => {
      const at = id.indexOf('@');
      if (at > 0) return this.#tryIndex(id, () => this.#indexListed(id.slice(0, at), id.slice(at + 1)));
      await this.#tryIndex(id, async () => {
        const unknown = (await this.#storage.listVersions(id)).filter((version) => semver.valid(version) && !this.#versions.has(id, version));
        await forEachAtOnce(unknown, PARALLEL_READS, (version) => this.#tryIndex(`${id}@${version}`, () => this.#indexListed(id, version)));
        return true;
      });
    });
  }

  /** Runs one read; a failure marks `id` unreadable (told once per reason), a success clears it. */
  async #tryIndex(id: string, read: () => Promise<boolean>): Promise<void> {
    try {
      if (await read()) this.#unreadable.delete(id);
    } catch (error) {
      const reason = error instanceof Error ? error.message : String(error);
      if (this.#unreadable.get(id) !== reason) this.#onUnreadable(id, reason);
      this.#unreadable.set(id, reason);
    }
  }

  /** A version storage listed: it must read. */
  async #indexListed(name: string, version: string): Promise<boolean> {
    if (this.#versions.has(name, version) || (await this.#index(name, version))) return true;
    throw new Error(`${name}@${version} has no package.json in storage.`);
  }

  /** Reads a version into the catalog; answers false when storage does not hold it. */
  async #index(name: string, version: string): Promise<boolean> {
    // An unpublished version's files stay in storage (its tombstone): read, never indexed.
    if (this.#lifecycles.isUnpublished(name, version)) return true;
    const summary = await readStoredVersion(this.#storage, name, version);
    if (!summary) return false;
    if (!this.#versions.has(name, version)) {
      this.#versions.add([new ComponentVersion(summary, this.#storage)]);
      this.#countChange();
    }
    return true;
  }

  /** Writes what this catalog knows as the newest index (in place of `replaced`), then prunes the journal behind it. Never fails the refresh. */
  async #writeIndex(replaced?: string): Promise<void> {
    const cursor = this.#cursor!;
    const snapshot: CatalogSnapshot = {
      format: INDEX_FORMAT,
      cursor,
      versions: Array.from(this.#versions.all(), (component) => component.descriptor),
      unreadable: [...this.#unreadable.keys()],
    };
    try {
      await writeIndex(this.#storage, snapshot, replaced);
      this.#indexCursor = Math.max(this.#indexCursor, cursor);
      this.#changesSinceIndex = 0;
      await this.#journal.prune(cursor - this.#retentionMs);
    } catch (error) {
      this.#onNotice(`the catalog index could not be written: ${(error as Error).message}`);
    }
  }
}

/** Runs `task` over `items`, at most `limit` at once. */
async function forEachAtOnce<T>(items: readonly T[], limit: number, task: (item: T) => Promise<unknown>): Promise<void> {
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < items.length) await task(items[next++]!);
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
}
