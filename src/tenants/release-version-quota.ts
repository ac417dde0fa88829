import type { StorageAdapter } from '../storage/storage-adapter';
import { versionsLedgerFolder } from './quota-folders';
import { QuotaLedger } from './quota-ledger';
import type { TenantDirectory } from './tenant-directory';

/**
 * An unpublished version no longer counts toward its tenant's versions per component (its files stay
 * in storage as its tombstone, so its bytes still do). Only a tenant with that quota keeps a ledger.
 */
export async function releaseVersionQuota(storage: StorageAdapter, tenants: TenantDirectory, tenant: string, name: string): Promise<void> {
  if (tenants.tenant(tenant)?.quotas.versionsPerComponent === undefined) return;
  const ledger = new QuotaLedger(storage, versionsLedgerFolder(tenant, name), async () => (await storage.listVersions(name)).length);
  await ledger.add(-1);
}
