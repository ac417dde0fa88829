import type { StorageAdapter } from '../storage/storage-adapter';
import type { ChangeJournal } from './change-journal';

/**
 * A version's lifecycle in storage, beside the journal (decisions §14): two folders of small
 * records, one per version, `unpublished/<name>@<version>` and `deprecations/<name>@<version>`.
 * An unpublish record is created once and never removed (the tombstone: the version's files stay
 * in storage, so storage's own write-once check keeps refusing its number); a deprecation record is
 * replaced or deleted. Each change is then announced in the change journal (an entry of kind
 * `lifecycle`), so every replica reads that version's records again at its next poll.
 */
const UNPUBLISHED = 'unpublished/';
const DEPRECATIONS = 'deprecations/';

/** Who unpublished a version, and when. */
export interface UnpublishRecord {
  /** ISO 8601. */
  date: string;
  /** The tenant that asked, or null for the administrator. */
  tenant: string | null;
}

/** A version's deprecation as `~info` shows it. */
export interface Deprecation {
  message: string;
  /** ISO 8601. */
  date: string;
}

const idOf = (key: string, folder: string): string => key.slice(folder.length);

/** `name@version` of every unpublished version. */
export async function listUnpublished(storage: StorageAdapter): Promise<string[]> {
  return (await storage.listRecords(UNPUBLISHED)).map((key) => idOf(key, UNPUBLISHED));
}

/** Every deprecation in storage, by `name@version`. A damaged record is read as no deprecation. */
export async function readDeprecations(storage: StorageAdapter): Promise<Map<string, Deprecation>> {
  const found = new Map<string, Deprecation>();
  for (const key of await storage.listRecords(DEPRECATIONS)) {
    const deprecation = parseDeprecation(await storage.readRecord(key));
    if (deprecation) found.set(idOf(key, DEPRECATIONS), deprecation);
  }
  return found;
}

/** One version's lifecycle as storage holds it now. */
export async function readLifecycle(storage: StorageAdapter, id: string): Promise<{ unpublished: boolean; deprecation: Deprecation | undefined }> {
  const [unpublished, deprecation] = await Promise.all([storage.readRecord(`${UNPUBLISHED}${id}`), storage.readRecord(`${DEPRECATIONS}${id}`)]);
  return { unpublished: unpublished !== undefined, deprecation: parseDeprecation(deprecation) };
}

/**
 * Creates the tombstone of `name@version`, once, then its journal entry: answers whether this call
 * created it. Of requests and replicas racing to unpublish one version, exactly one is answered
 * true, and only that one gives back the version's quota unit and writes the audit entry.
 */
export async function writeUnpublished(storage: StorageAdapter, journal: ChangeJournal, name: string, version: string, record: UnpublishRecord): Promise<boolean> {
  if (!(await storage.createRecord(`${UNPUBLISHED}${name}@${version}`, Buffer.from(JSON.stringify(record))))) return false;
  await announce(journal, name, version);
  return true;
}

/** Writes (or, with undefined, deletes) the deprecation of `name@version`, then its journal entry. */
export async function writeDeprecation(storage: StorageAdapter, journal: ChangeJournal, name: string, version: string, deprecation: Deprecation | undefined): Promise<void> {
  const key = `${DEPRECATIONS}${name}@${version}`;
  if (deprecation) await storage.putRecord(key, Buffer.from(JSON.stringify(deprecation)));
  else await storage.deleteRecords([key]);
  await announce(journal, name, version);
}

/** The entry goes after the record: a reader that finds the entry finds the record. */
async function announce(journal: ChangeJournal, name: string, version: string): Promise<void> {
  await journal.confirm(await journal.announce(name, version, undefined, 'lifecycle'));
}

function parseDeprecation(raw: Buffer | undefined): Deprecation | undefined {
  if (!raw) return undefined;
  try {
    const parsed = JSON.parse(raw.toString('utf8')) as Partial<Deprecation>;
    return typeof parsed.message === 'string' && typeof parsed.date === 'string' ? { message: parsed.message, date: parsed.date } : undefined;
  } catch {
    return undefined;
  }
}
