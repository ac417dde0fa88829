import type { FastifyRequest } from 'fastify';
import { AuditLog, type AuditAction } from '../../audit/audit-log';
import type { RegistryServices } from '../registry-services';
import type { LifecycleActor } from './lifecycle-permission';

/**
 * After a lifecycle change is stored: the registry's other front threads read the version's
 * records again (as for a publish), and the change goes to the audit log.
 */
export async function recordChange(
  services: RegistryServices,
  request: FastifyRequest,
  change: { action: AuditAction; name: string; version: string; actor: LifecycleActor; details?: Record<string, unknown> },
): Promise<void> {
  const { action, name, version, actor, details } = change;
  await services.published(name, version);
  await new AuditLog(services.storage).append({
    action,
    tenant: actor.tenant,
    tokenId: actor.tokenId,
    component: `${name}@${version}`,
    client: request.ip,
    ...(details ? { details } : {}),
  });
}
