import { TesseraError } from '../errors/errors';
import type { StorageAdapter } from '../storage/storage-adapter';
import type { TenantDirectory } from './tenant-directory';
import { tenantKey, type Tenant, type TenantQuotas } from './tenant-records';

/** What an administrator sets of a tenant. */
export interface TenantSettings {
  components: string[];
  quotas: TenantQuotas;
  weight?: number;
}

/**
 * Creates a tenant: its first revision, written only if absent, so two replicas creating the same
 * name at once cannot both succeed. Answers ALREADY_EXISTS when it exists.
 */
export async function createTenant(storage: StorageAdapter, name: string, settings: TenantSettings, by: string): Promise<Tenant> {
  const tenant: Tenant = { name, ...settings, revision: 1, updatedAt: new Date().toISOString(), updatedBy: by };
  if (!(await storage.createRecord(tenantKey(name, 1), Buffer.from(JSON.stringify(tenant))))) {
    throw new TesseraError('ALREADY_EXISTS', `Tenant "${name}" already exists; change it with PUT /~admin/tenants/${name}.`);
  }
  return tenant;
}

/**
 * Changes a tenant: a new revision, written only if absent. Two administrators changing it at once
 * race for the same revision; the loser is told to look again (ALREADY_EXISTS) instead of
 * silently overwriting what it never saw.
 */
export async function updateTenant(storage: StorageAdapter, directory: TenantDirectory, name: string, settings: Partial<TenantSettings>, by: string): Promise<Tenant> {
  await directory.refresh();
  const current = directory.tenant(name);
  if (!current) throw new TesseraError('NOT_FOUND', `No tenant is named "${name}".`);
  const tenant: Tenant = {
    ...current,
    ...settings,
    quotas: settings.quotas ?? current.quotas,
    revision: current.revision + 1,
    updatedAt: new Date().toISOString(),
    updatedBy: by,
  };
  if (!(await storage.createRecord(tenantKey(name, tenant.revision), Buffer.from(JSON.stringify(tenant))))) {
    throw new TesseraError('ALREADY_EXISTS', `Tenant "${name}" was changed by someone else meanwhile; read it again, then retry.`);
  }
  return tenant;
}
