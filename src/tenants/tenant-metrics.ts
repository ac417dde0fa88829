import { Gauge, type Registry } from 'prom-client';
import type { Catalog } from '../catalog/catalog';
import type { StorageAdapter } from '../storage/storage-adapter';
import { QuotaLedger } from './quota-ledger';
import { bytesLedgerFolder, hourOf, publishTicketsFolder } from './quota-folders';
import { QuotaTickets } from './quota-tickets';
import type { TenantDirectory } from './tenant-directory';
import { versionsOf } from './tenant-versions';

/**
 * Each stored tenant's use of its quotas, read at each scrape: `tessera_tenant_storage_bytes` and
 * `tessera_tenant_publishes_this_hour` from the shared store (a listing, and a read, per tenant),
 * `tessera_tenant_versions` from this replica's catalog. Registered in one thread per process;
 * every replica reports the same store.
 */
export function observeTenants(registry: Registry, directory: TenantDirectory, storage: StorageAdapter, catalog: Catalog, defaultTenant: string): void {
  const perTenant = (name: string, help: string, read: (tenant: string) => Promise<number>) =>
    new Gauge({
      name,
      help,
      labelNames: ['tenant'],
      registers: [registry],
      aggregator: 'max',
      async collect() {
        for (const tenant of directory.tenants()) {
          // A store that does not answer leaves the last figure; the scrape itself never fails on it.
          const value = await read(tenant.name).catch(() => undefined);
          if (value !== undefined) this.set({ tenant: tenant.name }, value);
        }
      },
    });
  perTenant('tessera_tenant_storage_bytes', "Unpacked bytes of a stored tenant's published packages, as counted for its storage quota.", (tenant) =>
    new QuotaLedger(storage, bytesLedgerFolder(tenant)).total(),
  );
  perTenant('tessera_tenant_publishes_this_hour', 'Publishes of a stored tenant in the current clock hour (UTC), as counted for its quota.', (tenant) =>
    new QuotaTickets(storage, publishTicketsFolder(tenant)).used(hourOf(Date.now())),
  );
  perTenant('tessera_tenant_versions', 'Published component versions that belong to a stored tenant.', async (tenant) => versionsOf(catalog, defaultTenant, tenant));
}
