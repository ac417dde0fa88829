/**
 * Tenants and their tokens as stored beside the components (decisions §14): records every replica
 * reads, never rewritten, so that listing them tells a replica what changed since its last poll.
 *
 * - `tenants/<name>.<revision>.json`: a tenant as set by its latest revision (each change is a new record);
 * - `tokens/<id>.json`: a token of a tenant, as the sha256 of its secret;
 * - `revoked-tokens/<id>.json`: the token `id` is revoked.
 */

/** Limits of one tenant; absent ones do not apply. */
export interface TenantQuotas {
  /** Bytes of unpacked package files its publishes may store, in all. */
  storageBytes?: number;
  /** Versions each of its components may have. */
  versionsPerComponent?: number;
  /** Publishes it may make within one clock hour (UTC). */
  publishesPerHour?: number;
  /** Lifecycle changes (unpublish, deprecate, its undoing) it may make within one clock minute (UTC); the registry's `limits.lifecycleChangesPerMinute` when absent. */
  lifecycleChangesPerMinute?: number;
}

export const QUOTA_NAMES = ['storageBytes', 'versionsPerComponent', 'publishesPerHour'] as const;
export type QuotaName = (typeof QUOTA_NAMES)[number];

export interface Tenant {
  name: string;
  /** Component-name patterns its tokens may publish; `*` matches any run of characters. */
  components: string[];
  quotas: TenantQuotas;
  /** Its weight in the sandbox's fair share; the configured weight, else 1, when absent. */
  weight?: number;
  /** Revision of this record: 1 when created, one more at each change. */
  revision: number;
  /** ISO 8601 time of this revision, and who made it (`admin`). */
  updatedAt: string;
  updatedBy: string;
}

export interface StoredToken {
  id: string;
  tenant: string;
  /** sha256 of the secret, lowercase hex; the secret itself is never stored. */
  sha256: string;
  createdAt: string;
  createdBy: string;
}

export interface TokenRevocation {
  id: string;
  revokedAt: string;
  revokedBy: string;
}

export const TENANTS = 'tenants/';
export const TOKENS = 'tokens/';
export const REVOCATIONS = 'revoked-tokens/';

const REVISION_DIGITS = 6;

export const tenantKey = (name: string, revision: number): string => `${TENANTS}${name}.${String(revision).padStart(REVISION_DIGITS, '0')}.json`;
export const tokenKey = (id: string): string => `${TOKENS}${id}.json`;
export const revocationKey = (id: string): string => `${REVOCATIONS}${id}.json`;

/** `tenants/<name>.<revision>.json` → its name and revision. */
export function parseTenantKey(key: string): { name: string; revision: number } | undefined {
  const match = /^tenants\/([a-z0-9-]+)\.(\d+)\.json$/.exec(key);
  return match ? { name: match[1]!, revision: Number(match[2]) } : undefined;
}

/** `tokens/<id>.json` or `revoked-tokens/<id>.json` → the id. */
export function parseTokenKey(key: string): string | undefined {
  return /^(?:tokens|revoked-tokens)\/([a-z0-9]+)\.json$/.exec(key)?.[1];
}

/** A record's JSON, or undefined when it is not JSON (a damaged record is skipped, not fatal). */
export function parseRecord<T>(raw: Buffer | undefined): T | undefined {
  if (!raw) return undefined;
  try {
    return JSON.parse(raw.toString('utf8')) as T;
  } catch {
    return undefined;
  }
}
