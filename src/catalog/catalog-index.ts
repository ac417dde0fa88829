import { randomBytes } from 'node:crypto';
import { promisify } from 'node:util';
import { gunzip, gzip } from 'node:zlib';
import type { StorageAdapter } from '../storage/storage-adapter';
import { isSummary, type DescriptorSummary } from './descriptor-summary';

const FOLDER = 'index/';
/** Raised when what the index holds changes; an index of another format is read as no index (the catalog lists storage once and writes a new one). */
export const INDEX_FORMAT = 1;
/** Indexes kept besides the newest: a replica that listed one a moment ago can still read it. */
const KEPT = 2;

/** What an index holds: every version a catalog knew, up to a time of the change journal. */
export interface CatalogSnapshot {
  format: typeof INDEX_FORMAT;
  /** The newest journal time the catalog had read: a reader goes on from there. */
  cursor: number;
  versions: DescriptorSummary[];
  /** Versions (`name@version`, or `name` when its versions could not be listed) that could not be read; every reader tries them again. */
  unreadable: string[];
}

const gzipped = promisify(gzip);
const gunzipped = promisify(gunzip);

/** `index/<cursor>-<random>.json.gz`: the newest sorts last. */
const indexKey = (cursor: number): string => `${FOLDER}${String(cursor).padStart(15, '0')}-${randomBytes(4).toString('hex')}.json.gz`;

/** The cursor an index's key carries, so that a poll learns of a newer index from a listing alone. */
export const cursorOfIndex = (key: string): number => Number(key.slice(FOLDER.length, FOLDER.length + 15));

/** Keys of the stored indexes, oldest first. */
export const listIndexes = (storage: StorageAdapter): Promise<string[]> => storage.listRecords(FOLDER);

/** The newest index; or why there is none to use, with the key of one to replace (damaged, or of an older format). */
export type IndexRead = { snapshot: CatalogSnapshot; key: string } | { missing: string; replace?: string };

/**
 * The newest index, or why there is none to use: no index yet (storage written by a registry
 * without one), one of another format, or one that cannot be read.
 */
export async function readNewestIndex(storage: StorageAdapter): Promise<IndexRead> {
  // An index deleted between the listing and the read (a newer one replaced it) is looked for again.
  for (let attempt = 0; attempt < 3; attempt++) {
    const key = (await listIndexes(storage)).at(-1);
    if (key === undefined) return { missing: 'storage has no catalog index' };
    const raw = await storage.readRecord(key);
    if (!raw) continue;
    let snapshot: CatalogSnapshot;
    try {
      snapshot = JSON.parse((await gunzipped(raw)).toString('utf8')) as CatalogSnapshot;
    } catch (error) {
      return { missing: `the catalog index ${key} cannot be read (${(error as Error).message})`, replace: key };
    }
    // A newer registry's index is left alone (this one cannot read it); an older one's is replaced.
    if (typeof snapshot?.format === 'number' && snapshot.format > INDEX_FORMAT) return { missing: `the catalog index ${key} is of a newer format (${snapshot.format})` };
    if (snapshot?.format !== INDEX_FORMAT) return { missing: `the catalog index ${key} is of an older format`, replace: key };
    if (typeof snapshot.cursor !== 'number' || !Array.isArray(snapshot.versions) || !snapshot.versions.every(isSummary) || !Array.isArray(snapshot.unreadable)) {
      return { missing: `the catalog index ${key} is damaged`, replace: key };
    }
    return { snapshot, key };
  }
  return { missing: 'the catalog index kept changing while it was read' };
}

/** Writes an index, then deletes all but the newest few, and `replaced` (one that could not be used); answers its key. */
export async function writeIndex(storage: StorageAdapter, snapshot: CatalogSnapshot, replaced?: string): Promise<string> {
  const key = indexKey(snapshot.cursor);
  // Compressed off the event loop: 50,000 versions are about 15 MB of JSON, a tenth of it gzipped.
  await storage.putRecord(key, await gzipped(Buffer.from(JSON.stringify(snapshot))));
  const others = (await listIndexes(storage)).filter((other) => other !== key && other !== replaced);
  await storage.deleteRecords([...others.slice(0, -KEPT), ...(replaced ? [replaced] : [])]);
  return key;
}
