import type { StorageAdapter } from '../storage/storage-adapter';
import { parseRecord } from '../tenants/tenant-records';

/**
 * Who owns a component's name, as records in storage (decisions §15): `names/<name>/<generation>.json`,
 * each created once and never rewritten. Generation 1 is the first claim; every move the
 * administrator makes (a transfer, a release) and every claim of a released name is the next
 * generation, so the newest record says who owns the name now and the folder is its history.
 * Two writers racing for one generation race for one key: the store answers exactly one of them.
 */
export interface NameRecord {
  name: string;
  generation: number;
  /** The owner from this generation on; null: released, any tenant whose patterns cover it may claim it. */
  tenant: string | null;
  /** `claim`: by a publish (or, for a name stored before claims existed, by its first version's tenant); the others by the administrator. */
  action: 'claim' | 'transfer' | 'release';
  /** ISO 8601. */
  date: string;
  /** The token that made it (`admin`, a token's id, `config:<tenant>`), or `history` for a name claimed for its first version. */
  by: string;
  /** The version whose publish claimed it. */
  version?: string;
}

const FOLDER = 'names/';
const GENERATION_DIGITS = 6;

const folderOf = (name: string): string => `${FOLDER}${name}/`;
const keyOf = (name: string, generation: number): string => `${folderOf(name)}${String(generation).padStart(GENERATION_DIGITS, '0')}.json`;

/** Every record of `name`, oldest first; records that cannot be read are left out. */
export async function readNameHistory(storage: StorageAdapter, name: string): Promise<NameRecord[]> {
  const keys = await storage.listRecords(folderOf(name));
  const records = await Promise.all(keys.map(async (key) => parseRecord<NameRecord>(await storage.readRecord(key))));
  return records.filter((record): record is NameRecord => record?.name === name && Number.isInteger(record.generation));
}

/** The newest record of `name`: who owns it now. Undefined when nothing was ever recorded. */
export async function readNewestName(storage: StorageAdapter, name: string): Promise<NameRecord | undefined> {
  const keys = await storage.listRecords(folderOf(name));
  // The newest that reads: a damaged record (a store that lost half a write) is passed over, not trusted.
  for (let index = keys.length - 1; index >= 0; index--) {
    const record = parseRecord<NameRecord>(await storage.readRecord(keys[index]!));
    if (record?.name === name && Number.isInteger(record.generation)) return record;
  }
  return undefined;
}

/** Writes `record` as its generation, only if that generation is not written yet: answers whether this writer made it. */
export function createNameRecord(storage: StorageAdapter, record: NameRecord): Promise<boolean> {
  return storage.createRecord(keyOf(record.name, record.generation), Buffer.from(JSON.stringify(record)));
}

/** Names that have records (one listing of the whole folder, at start): a file system lists their folders, S3 their records. */
export async function listClaimedNames(storage: StorageAdapter): Promise<Set<string>> {
  const names = new Set<string>();
  for (const key of await storage.listRecords(FOLDER)) {
    const slash = key.indexOf('/', FOLDER.length);
    names.add(key.slice(FOLDER.length, slash === -1 ? undefined : slash));
  }
  return names;
}
