import type { StorageAdapter } from '../storage/storage-adapter';
import { QuotaLedger } from './quota-ledger';
import { bytesLedgerFolder, hourOf, publishTicketsFolder } from './quota-folders';
import { QuotaTickets } from './quota-tickets';

/** What a tenant uses of its quotas, as counted in the shared store. */
export interface TenantUsage {
  /** Unpacked bytes its publishes stored since it was created in storage. */
  storageBytes: number;
  /** Publishes this clock hour. */
  publishesThisHour: number;
}

export async function readUsage(storage: StorageAdapter, tenant: string, now = Date.now()): Promise<TenantUsage> {
  const [storageBytes, publishesThisHour] = await Promise.all([
    new QuotaLedger(storage, bytesLedgerFolder(tenant)).total(),
    new QuotaTickets(storage, publishTicketsFolder(tenant)).used(hourOf(now)),
  ]);
  return { storageBytes, publishesThisHour };
}
