import type { TenantDirectory } from './tenant-directory';

/** A tenant's weight in the sandbox's fair share: its stored weight, else the configured one, else 1. */
export const tenantWeight =
  (directory: TenantDirectory, configured: Readonly<Record<string, number>>) =>
  (tenant: string): number =>
    directory.tenant(tenant)?.weight ?? configured[tenant] ?? 1;
