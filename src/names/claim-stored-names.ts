import type { StorageAdapter } from '../storage/storage-adapter';
import { currentOwner } from './name-owner';
import { listClaimedNames } from './name-records';

/** Names claimed at once: each reads its versions' descriptors. */
const PARALLEL = 8;

/**
 * Claims every name of `names` (the catalog's, read from its index: storage is not listed again) that
 * has no claim yet (stored before claims existed: the demo's, or an older registry's) for the tenant
 * of its first version: one listing of the claims, then only the names missing. Several replicas
 * starting together each try; the store keeps one claim per name (name-owner.ts). A publish or a
 * lifecycle change does the same for its own name when it comes first (a name whose versions were all
 * unpublished is claimed so), so nothing waits for this. Answers how many names lacked a claim.
 */
export async function claimStoredNames(storage: StorageAdapter, names: readonly string[], defaultTenant: string): Promise<number> {
  const claimed = await listClaimedNames(storage);
  const missing = names.filter((name) => !claimed.has(name));
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < missing.length) await currentOwner(storage, missing[next++]!, defaultTenant);
  };
  await Promise.all(Array.from({ length: Math.min(PARALLEL, missing.length) }, worker));
  return missing.length;
}
