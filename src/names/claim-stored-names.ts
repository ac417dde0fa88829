import type { StorageAdapter } from '../storage/storage-adapter';
import { currentOwner } from './name-owner';
import { listClaimedNames } from './name-records';

/** Names claimed at once: each reads its versions' descriptors. */
const PARALLEL = 8;

/**
 * Claims every stored name that has no claim yet (stored before claims existed: the demo's, or an
 * older registry's) for the tenant of its first version: one listing of the claims and one of the
 * components, then only the names missing. Several replicas starting together each try; the store
 * keeps one claim per name (name-owner.ts). A publish does the same for its own name when it comes
 * first, so nothing waits for this. Answers how many names lacked a claim.
 */
export async function claimStoredNames(storage: StorageAdapter, defaultTenant: string): Promise<number> {
  const [claimed, stored] = await Promise.all([listClaimedNames(storage), storage.listComponents()]);
  const missing = stored.filter((name) => !claimed.has(name));
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < missing.length) await currentOwner(storage, missing[next++]!, defaultTenant);
  };
  await Promise.all(Array.from({ length: Math.min(PARALLEL, missing.length) }, worker));
  return missing.length;
}
