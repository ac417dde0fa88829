import type { StorageAdapter } from '../storage/storage-adapter';
import {
  parseRecord,
  parseTenantKey,
  parseTokenKey,
  REVOCATIONS,
  TENANTS,
  TOKENS,
  type StoredToken,
  type Tenant,
  type TokenRevocation,
} from './tenant-records';

/** Records read at once during a refresh. */
const PARALLEL_READS = 16;

/**
 * What this replica knows of the stored tenants and tokens, read again at each storage poll:
 * three listings, then only the records it has not read yet (records are never rewritten, so a key
 * read once stays true). A revoked token is refused here from the poll after its revocation; a
 * publish thread also reads the revocation itself right before it stores (see publish-package.ts).
 */
export class TenantDirectory {
  readonly #storage: StorageAdapter;
  readonly #tenants = new Map<string, Tenant>();
  readonly #tokens = new Map<string, StoredToken>();
  readonly #bySha256 = new Map<string, StoredToken>();
  readonly #revoked = new Map<string, TokenRevocation>();
  readonly #read = new Set<string>();
  #refreshing: Promise<void> | undefined;
  /** A refresh asked for while one was under way: it lists again once that one ends. */
  #next: Promise<void> | undefined;
  readonly #refreshed: Array<() => void> = [];

  constructor(storage: StorageAdapter) {
    this.#storage = storage;
  }

  /**
   * Reads what changed in storage. A call finds every record written before it: while a read is under
   * way (it may have listed before that record), the call waits for the next read, which every call
   * made meanwhile shares.
   */
  refresh(): Promise<void> {
    if (!this.#refreshing) {
      this.#refreshing = this.#refresh().finally(() => (this.#refreshing = undefined));
      return this.#refreshing;
    }
    this.#next ??= this.#refreshing.catch(() => {}).then(() => {
      this.#next = undefined;
      return this.refresh();
    });
    return this.#next;
  }

  /** Called after each read of the records (a token revoked meanwhile is refused from then on). */
  afterRefresh(listener: () => void): void {
    this.#refreshed.push(listener);
  }

  tenant(name: string): Tenant | undefined {
    return this.#tenants.get(name);
  }

  tenants(): Tenant[] {
    return [...this.#tenants.values()].sort((a, b) => (a.name < b.name ? -1 : 1));
  }

  token(id: string): StoredToken | undefined {
    return this.#tokens.get(id);
  }

  /** Tokens (of `tenant` only when given), oldest first, with their revocation if any. */
  tokens(tenant?: string): Array<StoredToken & { revokedAt?: string }> {
    return [...this.#tokens.values()]
      .filter((token) => tenant === undefined || token.tenant === tenant)
      .sort((a, b) => (a.createdAt < b.createdAt ? -1 : a.createdAt > b.createdAt ? 1 : a.id < b.id ? -1 : 1))
      .map((token) => {
        const revocation = this.#revoked.get(token.id);
        return revocation ? { ...token, revokedAt: revocation.revokedAt } : token;
      });
  }

  /** The live token whose secret hashes to `sha256`, with its tenant; undefined when unknown, revoked, or its tenant is gone. */
  liveToken(sha256: string): { token: StoredToken; tenant: Tenant } | undefined {
    const token = this.#bySha256.get(sha256);
    const tenant = token && this.#tenants.get(token.tenant);
    if (!token || !tenant || this.#revoked.has(token.id)) return undefined;
    return { token, tenant };
  }

  async #refresh(): Promise<void> {
    const [tenants, tokens, revocations] = await Promise.all([TENANTS, TOKENS, REVOCATIONS].map((folder) => this.#storage.listRecords(folder)));
    const unread = [...tenants!, ...tokens!, ...revocations!].filter((key) => !this.#read.has(key));
    let next = 0;
    const reader = async (): Promise<void> => {
      while (next < unread.length) {
        const key = unread[next++]!;
        if (this.#adopt(key, await this.#storage.readRecord(key))) this.#read.add(key);
      }
    };
    await Promise.all(Array.from({ length: Math.min(PARALLEL_READS, unread.length) }, reader));
    for (const listener of this.#refreshed) listener();
  }

  /** Takes one record in; answers whether it was read whole (a damaged one is tried again next time). */
  #adopt(key: string, raw: Buffer | undefined): boolean {
    if (key.startsWith(TENANTS)) {
      const tenant = parseRecord<Tenant>(raw);
      if (!tenant || parseTenantKey(key)?.name !== tenant.name) return false;
      const known = this.#tenants.get(tenant.name);
      if (!known || known.revision < tenant.revision) this.#tenants.set(tenant.name, tenant);
      return true;
    }
    const id = parseTokenKey(key);
    if (key.startsWith(TOKENS)) {
      const token = parseRecord<StoredToken>(raw);
      if (!token || token.id !== id) return false;
      this.#tokens.set(token.id, token);
      this.#bySha256.set(token.sha256, token);
      return true;
    }
    const revocation = parseRecord<TokenRevocation>(raw);
    if (!revocation || revocation.id !== id) return false;
    this.#revoked.set(revocation.id, revocation);
    return true;
  }
}
