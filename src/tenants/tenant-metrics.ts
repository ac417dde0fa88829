import { Gauge, type Registry } from 'prom-client';
import type { Catalog } from '../catalog/catalog';
import type { StorageAdapter } from '../storage/storage-adapter';
import type { TenantDirectory } from './tenant-directory';
import { readUsage } from './tenant-usage';
import { versionsOf } from './tenant-versions';

/**
 * Each stored tenant's use of its quotas, read from the shared store at each scrape (a listing and
 * a read per tenant): `tessera_tenant_storage_bytes`, `tessera_tenant_publishes_this_hour`, and
 * `tessera_tenant_versions` as this replica's catalog counts them. Registered in one thread per
 * process; every replica reports the same store.
 */
export function observeTenants(registry: Registry, directory: TenantDirectory, storage: StorageAdapter, catalog: Catalog, defaultTenant: string): void {
  new Gauge({
    name: 'tessera_tenant_versions',
    help: 'Published component versions that belong to a stored tenant.',
    labelNames: ['tenant'],
    registers: [registry],
    aggregator: 'max',
    async collect() {
      for (const tenant of directory.tenants()) {
        this.set({ tenant: tenant.name }, versionsOf(catalog, defaultTenant, tenant.name));
        const usage = await readUsage(storage, tenant.name).catch(() => undefined);
        if (!usage) continue;
        bytes.set({ tenant: tenant.name }, usage.storageBytes);
        publishes.set({ tenant: tenant.name }, usage.publishesThisHour);
      }
    },
  });
  // Registered after the gauge whose collect sets them: a scrape reads them once it ran.
  const bytes = new Gauge({ name: 'tessera_tenant_storage_bytes', help: "Unpacked bytes of a tenant's published packages, as counted for its storage quota.", labelNames: ['tenant'], registers: [registry], aggregator: 'max' });
  const publishes = new Gauge({ name: 'tessera_tenant_publishes_this_hour', help: 'Publishes of a tenant in the current clock hour (UTC), as counted for its quota.', labelNames: ['tenant'], registers: [registry], aggregator: 'max' });
}
