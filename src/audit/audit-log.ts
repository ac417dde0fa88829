import { randomBytes } from 'node:crypto';
import type { StorageAdapter } from '../storage/storage-adapter';

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

const FOLDER = 'audit/';
/** Milliseconds since the epoch, zero-padded: keys sort in the order entries were recorded. */
const TIME_DIGITS = 15;

/**
 * The audit trail in storage, beside the components (so every replica writes to and reads the same
 * one): one record per entry under its own key (`audit/<time>-<random>`), never rewritten, so two
 * replicas appending at once never lose each other's entry, and the log reads in order by listing.
 */
export class AuditLog {
  readonly #storage: StorageAdapter;
  readonly #clock: () => number;

  constructor(storage: StorageAdapter, clock: () => number = Date.now) {
    this.#storage = storage;
    this.#clock = clock;
  }

  /** Appends one entry, stamped with the time now. */
  async append(entry: Omit<AuditEntry, 'time'>): Promise<AuditEntry> {
    const now = this.#clock();
    const recorded: AuditEntry = { time: new Date(now).toISOString(), ...entry };
    const key = `${FOLDER}${String(now).padStart(TIME_DIGITS, '0')}-${randomBytes(6).toString('hex')}`;
    await this.#storage.putRecord(key, Buffer.from(JSON.stringify(recorded)));
    return recorded;
  }

  /** A page of entries in the order they were recorded, those of `query.tenant` or `query.component` only when given. */
  async read(query: AuditQuery): Promise<AuditPage> {
    const keys = await this.#storage.listRecords(FOLDER, query.after);
    const entries: AuditEntry[] = [];
    for (const key of keys) {
      const raw = await this.#storage.readRecord(key);
      const entry = raw && parseEntry(raw);
      if (!entry || !matches(entry, query)) continue;
      entries.push(entry);
      if (entries.length === query.limit) return { entries, next: key };
    }
    return { entries };
  }
}

function matches(entry: AuditEntry, query: AuditQuery): boolean {
  if (query.tenant !== undefined && entry.tenant !== query.tenant) return false;
  if (query.component !== undefined && !entry.component?.startsWith(`${query.component}@`)) return false;
  return true;
}

function parseEntry(raw: Buffer): AuditEntry | undefined {
  try {
    const entry = JSON.parse(raw.toString('utf8')) as AuditEntry;
    return typeof entry.time === 'string' && typeof entry.action === 'string' ? entry : undefined;
  } catch {
    return undefined;
  }
}
