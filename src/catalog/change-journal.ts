import { randomBytes } from 'node:crypto';
import type { StorageAdapter } from '../storage/storage-adapter';

const FOLDER = 'changes/';
/** Milliseconds since the epoch, zero-padded so that keys sort by time. */
const TIME_DIGITS = 15;

/**
 * How far behind the newest entry a reader looks again at each poll, in entry time. An entry
 * whose publish took longer than this to commit, or whose writer's clock lags the others' by as
 * much, is written again (see `confirm`): correctness never rests on clocks, only the cost does.
 */
export const WINDOW_MS = 60_000;

/**
 * Entries are grouped in folders of one window of time (`changes/<minute>/…`): a reader lists from
 * its cursor less the window, so a poll lists the previous folder and the current one, however long
 * the journal; a file system reads no other folder than those (see FileSystemStorage.listRecords).
 */
const BUCKET_MS = WINDOW_MS;

/** Journal keys listed at once while pruning. */
const PRUNE_CHUNK = 1000;

/**
 * What an entry says changed: a version was stored (`version`), or its lifecycle records
 * (unpublished, deprecated; see lifecycle-records.ts) were written, which readers read again.
 */
export type EntryKind = 'version' | 'lifecycle';

/** Suffix of a lifecycle entry's key; `~` is in no component name nor semver version. */
const LIFECYCLE_SUFFIX = '~lifecycle';

/** One record of the journal: `name@version` was published (or was about to be), or its lifecycle changed, at `time`. */
export interface JournalEntry {
  key: string;
  time: number;
  name: string;
  version: string;
  kind: EntryKind;
}

const digits = (time: number): string => String(Math.max(0, Math.floor(time))).padStart(TIME_DIGITS, '0');

/** `changes/<minute>/<time>`: where entries of `time` start; every key sorts by time. */
const timeKey = (time: number): string => `${FOLDER}${digits(time - (time % BUCKET_MS))}/${digits(time)}`;

/**
 * `changes/<minute>/<time>-<random>-<name>@<version>[~lifecycle]`: everything a reader needs is in
 * the key, so a poll reads no record, only a listing. Keys of a registry before the time folders
 * (`changes/<time>-…`) are read too, until pruned.
 */
export function parseEntryKey(key: string): JournalEntry | undefined {
  const match = /^changes\/(?:\d{15}\/)?(\d{15})-[0-9a-f]{8}-([a-z0-9-]+)@([^~]+)(~lifecycle)?$/.exec(key);
  return match ? { key, time: Number(match[1]), name: match[2]!, version: match[3]!, kind: match[4] ? 'lifecycle' : 'version' } : undefined;
}

/**
 * The catalog's change journal in storage: one small record per publish, under its own key, so two
 * replicas publishing at once never write the same object and neither loses the other's entry.
 * Keys sort by the writer's time; a reader keeps the newest time it has seen (its cursor) and
 * lists, at each poll, only the keys from `cursor - WINDOW_MS` on: one listing, whatever the size of
 * the catalog or the length of the journal, plus one read of each version it does not know yet.
 *
 * An entry can show up in a listing later than entries with later keys (its writer was slow, or
 * its clock behind). `announce` writes the entry before the version is stored, and `confirm`, once
 * it is, lists the keys later than the entry's time plus the window: when there are none, every
 * reader's cursor is still within reach of the entry, so each lists it at its next poll and finds
 * the version committed; when there are, the entry is written again, at the newest time seen.
 * An entry whose version never committed (a refused or failed publish) is withdrawn, and otherwise
 * ignored: readers only index versions that storage holds whole.
 */
export class ChangeJournal {
  readonly #storage: StorageAdapter;
  readonly #clock: () => number;

  constructor(storage: StorageAdapter, clock: () => number = Date.now) {
    this.#storage = storage;
    this.#clock = clock;
  }

  /** Records that `name@version` is being stored (or that its lifecycle records changed); answers the entry, to confirm or withdraw. */
  async announce(name: string, version: string, time = this.#clock(), kind: EntryKind = 'version'): Promise<JournalEntry> {
    const key = `${timeKey(time)}-${randomBytes(4).toString('hex')}-${name}@${version}${kind === 'lifecycle' ? LIFECYCLE_SUFFIX : ''}`;
    await this.#storage.putRecord(key, Buffer.alloc(0));
    return parseEntryKey(key)!;
  }

  /**
   * After the version is stored: writes the entry again, at the newest time seen, for as long as a
   * reader may have moved past it. Answers the entry that readers will find.
   */
  async confirm(entry: JournalEntry): Promise<JournalEntry> {
    let current = entry;
    for (let attempt = 0; attempt < 5; attempt++) {
      const later = await this.#storage.listRecords(FOLDER, timeKey(current.time + WINDOW_MS + 1));
      if (later.length === 0) return current;
      const newest = Math.max(...later.map((key) => parseEntryKey(key)?.time ?? 0));
      current = await this.announce(entry.name, entry.version, Math.max(this.#clock(), newest), entry.kind);
    }
    return current;
  }

  /** Removes the entry of a publish that did not store its version; a leftover would only be ignored. */
  async withdraw(entry: JournalEntry): Promise<void> {
    await this.#storage.deleteRecords([entry.key]).catch(() => {});
  }

  /** The entries a reader whose cursor is `cursor` must look at (all of them without one), in key order. */
  async since(cursor: number | undefined): Promise<JournalEntry[]> {
    const startAfter = cursor === undefined || cursor <= WINDOW_MS ? undefined : timeKey(cursor - WINDOW_MS);
    return (await this.#storage.listRecords(FOLDER, startAfter)).map(parseEntryKey).filter((entry) => entry !== undefined);
  }

  /**
   * Deletes the entries older than `time` (the catalog's index holds what they said), oldest
   * first, a chunk at a time: the listing stops at the first kept entry. Answers how many.
   */
  async prune(time: number): Promise<number> {
    const horizon = timeKey(time);
    let removed = 0;
    for (let after: string | undefined; ; ) {
      const keys = await this.#storage.listRecords(FOLDER, after, PRUNE_CHUNK);
      const old = keys.filter((key) => key < horizon);
      await this.#storage.deleteRecords(old);
      removed += old.length;
      if (keys.length < PRUNE_CHUNK || old.length < keys.length) return removed;
      after = keys.at(-1);
    }
  }
}
