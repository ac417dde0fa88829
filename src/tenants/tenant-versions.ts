import type { Catalog } from '../catalog/catalog';
import { tenantOf } from '../catalog/tenant-of';

/** Published versions that belong to `tenant`, as this replica's catalog holds them. */
export function versionsOf(catalog: Catalog, defaultTenant: string, tenant: string): number {
  let count = 0;
  for (const name of catalog.names()) {
    for (const version of catalog.versions(name)) if (tenantOf(catalog.resolve(name, version), defaultTenant) === tenant) count += 1;
  }
  return count;
}
