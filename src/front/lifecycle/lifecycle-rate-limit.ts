import { takeLifecycleChange } from '../../tenants/lifecycle-rate';
import type { RegistryServices } from '../registry-services';
import type { LifecycleActor } from './lifecycle-permission';

/**
 * Counts an authorized lifecycle change against its tenant's rate (src/tenants/lifecycle-rate.ts),
 * before anything is written: the stored tenant's `lifecycleChangesPerMinute` quota, else the
 * registry's `limits.lifecycleChangesPerMinute`. The administrator is not limited.
 */
export async function limitLifecycleChange(services: Pick<RegistryServices, 'storage' | 'tenants' | 'config'>, actor: LifecycleActor): Promise<void> {
  if (actor.tenant === null) return;
  const limit = services.tenants.tenant(actor.tenant)?.quotas.lifecycleChangesPerMinute ?? services.config.limits.lifecycleChangesPerMinute;
  await takeLifecycleChange(services.storage, actor.tenant, limit);
}
