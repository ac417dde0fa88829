import { timingSafeEqual } from 'node:crypto';
import type { PublishToken } from '../config/config';
import { matchesNamePattern } from '../config/name-pattern';
import { hashToken } from '../tenants/hash-token';
import type { TenantDirectory } from '../tenants/tenant-directory';
import type { TenantQuotas } from '../tenants/tenant-records';

export { hashToken };

/** Who a publish token speaks for. */
export interface Publisher {
  tenant: string;
  components: string[];
  /** `config:<tenant>` for a configured token, else the stored token's id. */
  tokenId: string;
  /** Whether the token lives in storage (and may be revoked there). */
  stored: boolean;
  /** The stored tenant's quotas; a tenant only configured has none. */
  quotas?: TenantQuotas;
}

/**
 * The publisher an `Authorization: Bearer <token>` header presents: a configured token, else a
 * live stored one (decisions §14); undefined when neither. A configured token's tenant takes the
 * quotas of the stored tenant of the same name, when there is one.
 */
export function publisherOf(authorization: string | undefined, tokens: readonly PublishToken[], directory: TenantDirectory): Publisher | undefined {
  const configured = tokenOf(authorization, tokens);
  if (configured) {
    return { tenant: configured.tenant, components: configured.components, tokenId: `config:${configured.tenant}`, stored: false, quotas: directory.tenant(configured.tenant)?.quotas };
  }
  const secret = bearerOf(authorization);
  // A map lookup by the sha256 of the secret: its timing tells nothing of the secret.
  const found = secret === undefined ? undefined : directory.liveToken(hashToken(secret));
  if (!found) return undefined;
  return { tenant: found.tenant.name, components: found.tenant.components, tokenId: found.token.id, stored: true, quotas: found.tenant.quotas };
}

const bearerOf = (authorization: string | undefined): string | undefined => /^Bearer[ \t]+(\S+)[ \t]*$/i.exec(authorization ?? '')?.[1];

/**
 * The configured token an `Authorization: Bearer <token>` header presents, or undefined. Hashes are
 * compared in constant time, and every configured hash is compared, so the answer's timing says
 * nothing about which token, if any, matched.
 */
export function tokenOf(authorization: string | undefined, tokens: readonly PublishToken[]): PublishToken | undefined {
  const secret = bearerOf(authorization);
  if (secret === undefined) return undefined;
  const presented = Buffer.from(hashToken(secret), 'hex');
  let found: PublishToken | undefined;
  for (const token of tokens) {
    const configured = Buffer.from(token.sha256, 'hex');
    if (configured.length === presented.length && timingSafeEqual(configured, presented) && !found) found = token;
  }
  return found;
}

/** Whether a component name is inside the token's scope (`*` matches any run of characters). */
export function mayPublish(token: Pick<PublishToken, 'components'>, name: string): boolean {
  return matchesNamePattern(token.components, name);
}
