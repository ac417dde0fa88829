import { createHash, timingSafeEqual } from 'node:crypto';

/**
 * Whether an `Authorization: Bearer <token>` header presents the administrator's token, whose
 * sha256 is configured as `adminTokenSha256` (none configured: nobody is the administrator).
 * Compared in constant time, as publish tokens are.
 */
export function isAdminToken(authorization: string | undefined, adminTokenSha256: string | undefined): boolean {
  const match = /^Bearer[ \t]+(\S+)[ \t]*$/i.exec(authorization ?? '');
  if (!match || !adminTokenSha256) return false;
  const presented = createHash('sha256').update(match[1]!, 'utf8').digest();
  const configured = Buffer.from(adminTokenSha256, 'hex');
  return configured.length === presented.length && timingSafeEqual(configured, presented);
}
