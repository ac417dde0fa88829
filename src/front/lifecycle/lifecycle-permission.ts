import semver from 'semver';
import type { ComponentVersion } from '../../catalog/component-version';
import { isAdminToken } from '../../config/admin-token';
import { matchesNamePattern } from '../../config/name-pattern';
import { TesseraError } from '../../errors/errors';
import { currentOwner } from '../../names/name-owner';
import { publisherOf } from '../../publish/tenant-tokens';
import { revokedTokenError } from '../../publish/upload-errors';
import { readRevocation } from '../../tenants/token-store';
import type { RegistryServices } from '../registry-services';

/** Who changes a version's lifecycle, as the audit log names them. */
export interface LifecycleActor {
  /** The tenant, or null for the administrator. */
  tenant: string | null;
  tokenId: string;
}

/**
 * What a presented token is: the administrator's, or a tenant's publish token (configured, or in
 * storage and not revoked as of this replica's last poll). 401 for anything else.
 */
export function authenticate(
  authorization: string | undefined,
  services: Pick<RegistryServices, 'config' | 'tenants'>,
): { admin: true } | { admin: false; tenant: string; components: string[]; tokenId: string; stored: boolean } {
  if (isAdminToken(authorization, services.config.adminTokenSha256)) return { admin: true };
  const token = publisherOf(authorization, services.config.publishTokens, services.tenants);
  if (!token) throw new TesseraError('UNAUTHORIZED', 'A valid token is required: send "Authorization: Bearer <token>" with a publish token of the tenant that published the version, or the administrator\'s.');
  return { admin: false, tenant: token.tenant, components: token.components, tokenId: token.tokenId, stored: token.stored };
}

/**
 * A stored token revoked on another replica since this one's last poll is refused all the same,
 * read from storage as a publish reads it: an unpublish cannot be taken back.
 */
export async function assertNotRevoked(services: Pick<RegistryServices, 'storage'>, who: ReturnType<typeof authenticate>): Promise<void> {
  if (who.admin || !who.stored) return;
  if (await readRevocation(services.storage, who.tokenId)) throw revokedTokenError();
}

/**
 * The published version `name@version` names exactly: GONE when it was unpublished, NOT_FOUND when
 * it was never published. A version another replica published since this one's last poll is read
 * from storage.
 */
export async function exactVersion(services: RegistryServices, name: string, version: string): Promise<ComponentVersion> {
  if (services.catalog.isUnpublished(name, version)) return services.catalog.resolve(name, version);
  if (semver.valid(version) === version && !services.catalog.versions(name).includes(version)) {
    const added = await services.catalog.add(name, version).catch(() => undefined);
    // Unpublished on another replica since this one's last poll: `resolve` now answers GONE.
    if (!added && services.catalog.isUnpublished(name, version)) return services.catalog.resolve(name, version);
  }
  if (!services.catalog.versions(name).includes(version)) throw new TesseraError('NOT_FOUND', `${name}@${version} is not published on this registry.`);
  return services.catalog.resolve(name, version);
}

/**
 * Whether `who` may change the version's lifecycle (decisions §14, §15): the administrator always; a
 * tenant only for versions of a name it owns now (storage's record of the name, read right before
 * the change is written, not this replica's memory) and its token's patterns cover, and, to
 * unpublish, within `unpublishWindowHours` of the publish. FORBIDDEN otherwise, saying why.
 */
export async function authorize(
  who: ReturnType<typeof authenticate>,
  component: ComponentVersion,
  action: 'unpublish' | 'deprecate',
  services: Pick<RegistryServices, 'config' | 'storage'>,
  now: number,
): Promise<LifecycleActor> {
  if (who.admin) return { tenant: null, tokenId: 'admin' };
  const { config } = services;
  const id = `${component.name}@${component.version}`;
  // The version is stored, so its name has an owner record (claimed for its first version if it had none); null: released.
  const owner = (await currentOwner(services.storage, component.name, config.tenants.default))?.tenant ?? null;
  if (owner !== who.tenant || !matchesNamePattern(who.components, component.name)) {
    throw new TesseraError('FORBIDDEN', `Tenant "${who.tenant}" may not ${action} ${id}: it belongs to tenant "${owner ?? 'none (the name was released)'}".`);
  }
  if (action === 'unpublish') {
    const published = component.descriptor.oc.publisher?.date ?? component.descriptor.oc.date;
    const windowMs = config.unpublishWindowHours * 60 * 60 * 1000;
    if (!(now - published <= windowMs)) {
      throw new TesseraError(
        'FORBIDDEN',
        `${id} was published more than ${config.unpublishWindowHours} hours ago (unpublishWindowHours): past that window only the administrator may unpublish it.`,
      );
    }
  }
  return { tenant: who.tenant, tokenId: who.tokenId };
}
