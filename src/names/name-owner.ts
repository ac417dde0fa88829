import semver from 'semver';
import type { PackagedDescriptor } from '../descriptor/descriptor-types';
import { TesseraError } from '../errors/errors';
import type { StorageAdapter } from '../storage/storage-adapter';
import { createNameRecord, readNewestName, type NameRecord } from './name-records';

/** Writers that can take the next generation before this one gives up: each lost race means another went on. */
const MAX_ATTEMPTS = 20;
/** Descriptors read at once when a name stored before claims existed is claimed for its first version. */
const PARALLEL_READS = 8;

/** Who asks for a claim, as its record keeps it. */
export interface Claimant {
  tenant: string;
  /** The token's id (`config:<tenant>` for a configured one). */
  by: string;
  version: string;
}

/**
 * The record that says who owns `name` now. A name stored before claims existed (the demo's, or one
 * published by an older registry) has none: it is claimed here, once, for the tenant of its first
 * version, whichever replica or request asks first (the store keeps one generation 1). Undefined
 * when the name was never claimed and has no stored version.
 */
export async function currentOwner(storage: StorageAdapter, name: string, defaultTenant: string): Promise<NameRecord | undefined> {
  for (let attempt = 0; attempt < MAX_ATTEMPTS; attempt++) {
    const newest = await readNewestName(storage, name);
    if (newest) return newest;
    const tenant = await firstPublisher(storage, name, defaultTenant);
    if (tenant === undefined) return undefined;
    const record: NameRecord = { name, generation: 1, tenant, action: 'claim', date: new Date().toISOString(), by: 'history' };
    if (await createNameRecord(storage, record)) return record;
  }
  throw raced(name);
}

/**
 * Claims `name` for the claimant's tenant right before its version is written: answers the record
 * it holds the name by, and whether this call created it (to take it back if nothing is stored).
 * FORBIDDEN when another tenant owns the name, however recently that was decided.
 */
export async function claimName(storage: StorageAdapter, name: string, claimant: Claimant, defaultTenant: string): Promise<{ record: NameRecord; created: boolean }> {
  for (let attempt = 0; attempt < MAX_ATTEMPTS; attempt++) {
    const owner = await currentOwner(storage, name, defaultTenant);
    assertMayClaim(owner, claimant.tenant, name);
    if (owner?.tenant === claimant.tenant) return { record: owner, created: false };
    const record: NameRecord = {
      name,
      generation: (owner?.generation ?? 0) + 1,
      tenant: claimant.tenant,
      action: 'claim',
      date: new Date().toISOString(),
      by: claimant.by,
      version: claimant.version,
    };
    if (await createNameRecord(storage, record)) return { record, created: true };
  }
  throw raced(name);
}

/** Refuses a publish of `name` by `tenant` when another tenant owns the name. */
export function assertMayClaim(owner: NameRecord | undefined, tenant: string, name: string): void {
  if (owner?.tenant != null && owner.tenant !== tenant) {
    throw new TesseraError('FORBIDDEN', `Tenant "${tenant}" may not publish "${name}": the name belongs to tenant "${owner.tenant}".`, {
      details: { name, owner: owner.tenant },
    });
  }
}

/**
 * The tenant of the earliest published of the name's stored versions (unpublished ones included: their
 * files stay), or the default tenant when it recorded none; undefined when storage holds no version.
 */
async function firstPublisher(storage: StorageAdapter, name: string, defaultTenant: string): Promise<string | undefined> {
  const versions = (await storage.listVersions(name)).filter((version) => semver.valid(version)).sort(semver.compare);
  let first: { date: number; tenant: string } | undefined;
  for (let start = 0; start < versions.length; start += PARALLEL_READS) {
    const descriptors = await Promise.all(versions.slice(start, start + PARALLEL_READS).map((version) => readDescriptor(storage, name, version)));
    for (const descriptor of descriptors) {
      if (!descriptor) continue;
      const date = descriptor.oc.publisher?.date ?? descriptor.oc.date ?? Infinity;
      // Ascending versions: of two with the same date (or none), the lower one counts as first.
      if (!first || date < first.date) first = { date, tenant: descriptor.oc.publisher?.tenant ?? defaultTenant };
    }
  }
  // Versions whose descriptors cannot be read still tell that the name was taken: the default tenant's, as at run time.
  return first?.tenant ?? (versions.length > 0 ? defaultTenant : undefined);
}

async function readDescriptor(storage: StorageAdapter, name: string, version: string): Promise<PackagedDescriptor | undefined> {
  try {
    const raw = await storage.readFile(name, version, 'package.json');
    return raw ? (JSON.parse(raw.toString('utf8')) as PackagedDescriptor) : undefined;
  } catch {
    return undefined;
  }
}

const raced = (name: string): TesseraError => new TesseraError('STORAGE_UNAVAILABLE', `Too many changes raced for the name "${name}"; retry.`);
