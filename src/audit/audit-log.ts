import { randomBytes } from 'node:crypto';
import type { StorageAdapter } from '../storage/storage-adapter';
import { entryId, folderFor, idOfKey, keysOf, LOG } from './audit-keys';

/** What changed: a version's life, or a tenant's and its tokens' (decisions §14). */
export type AuditAction = 'publish' | 'unpublish' | 'deprecate' | 'tenant-create' | 'tenant-update' | 'token-create' | 'token-revoke' | 'name-transfer' | 'name-release';

/** One change, as the log keeps it. */
export interface AuditEntry {
  /** ISO 8601, when the registry recorded it. */
  time: string;
  action: AuditAction;
  /** The tenant acting (a publisher), or the tenant a change is about; null for the administrator acting on the registry. */
  tenant: string | null;
  /** The id of the token that authorized it (`config:<tenant>` for a token of the configuration, `admin` for the administrator). */
  tokenId: string;
  /** `name@version` of the version it concerns, when it concerns one. */
  component?: string;
  /** sha256 (hex) of the package published. */
  sha256?: string;
  /** The address of the client that asked. */
  client?: string;
  /** What else the action says (a deprecation's message, a tenant's new quotas). */
  details?: Record<string, unknown>;
}

/** Which entries to read: the oldest first, after a cursor, narrowed to a tenant or a component. */
export interface AuditQuery {
  tenant?: string;
  /** A component's name: its versions' entries. */
  component?: string;
  /** The `next` of the previous page. */
  after?: string;
  limit: number;
}

export interface AuditPage {
  entries: AuditEntry[];
  /** Where the next page starts, when there may be one. */
  next?: string;
}

/** Records read at once while filling a page. */
const PARALLEL_READS = 16;

/**
 * The audit trail in storage, beside the components (so every replica writes to and reads the same
 * one): one record per entry under its own key (audit-keys.ts), never rewritten, so two replicas
 * appending at once never lose each other's entry, and the log reads in order by listing. Each
 * entry is also written in its tenant's and its component's views, so that a narrowed page lists
 * and reads that page, not the whole log.
 */
export class AuditLog {
  readonly #storage: StorageAdapter;
  readonly #clock: () => number;

  constructor(storage: StorageAdapter, clock: () => number = Date.now) {
    this.#storage = storage;
    this.#clock = clock;
  }

  /** Appends one entry, stamped with the time now, to the log and its views. */
  async append(entry: Omit<AuditEntry, 'time'>): Promise<AuditEntry> {
    const now = this.#clock();
    const recorded: AuditEntry = { time: new Date(now).toISOString(), ...entry };
    const content = Buffer.from(JSON.stringify(recorded));
    await Promise.all(keysOf(entryId(now, randomBytes(6).toString('hex')), recorded).map((key) => this.#storage.putRecord(key, content)));
    return recorded;
  }

  /**
   * A page of entries in the order they were recorded, those of `query.tenant` or `query.component`
   * only when given: listed from that view, `limit` keys at a time. `next` is the log's key of the
   * page's last entry, whichever view it was read from.
   */
  async read(query: AuditQuery): Promise<AuditPage> {
    const folder = folderFor(query);
    if (folder === undefined) return { entries: [] };
    const entries: AuditEntry[] = [];
    let after = query.after === undefined ? undefined : `${folder}${idOfKey(query.after, LOG)}`;
    for (;;) {
      const keys = await this.#storage.listRecords(folder, after, query.limit);
      const read = await readAll(this.#storage, keys);
      for (const [index, raw] of read.entries()) {
        const entry = raw && parseEntry(raw);
        if (!entry || !matches(entry, query)) continue;
        entries.push(entry);
        if (entries.length === query.limit) return { entries, next: `${LOG}${idOfKey(keys[index]!, folder)}` };
      }
      if (keys.length < query.limit) return { entries };
      after = keys.at(-1);
    }
  }
}

/** The records under `keys`, in their order, a few read at once. */
async function readAll(storage: StorageAdapter, keys: readonly string[]): Promise<Array<Buffer | undefined>> {
  const read: Array<Buffer | undefined> = new Array(keys.length);
  let next = 0;
  const reader = async (): Promise<void> => {
    while (next < keys.length) {
      const index = next++;
      read[index] = await storage.readRecord(keys[index]!);
    }
  };
  await Promise.all(Array.from({ length: Math.min(PARALLEL_READS, keys.length) }, reader));
  return read;
}

function matches(entry: AuditEntry, query: AuditQuery): boolean {
  if (query.tenant !== undefined && entry.tenant !== query.tenant) return false;
  if (query.component !== undefined && !entry.component?.startsWith(`${query.component}@`)) return false;
  return true;
}

/** An entry's JSON; undefined for a damaged record (skipped, not fatal). */
export function parseEntry(raw: Buffer): AuditEntry | undefined {
  try {
    const entry = JSON.parse(raw.toString('utf8')) as AuditEntry;
    return typeof entry.time === 'string' && typeof entry.action === 'string' ? entry : undefined;
  } catch {
    return undefined;
  }
}
