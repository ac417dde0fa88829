import { timingSafeEqual } from 'node:crypto';
import type { FastifyRequest } from 'fastify';
import { TesseraError } from '../errors/errors';
import { hashToken } from '../tenants/hash-token';

/** Who the audit log names for what the administrator does. */
export const ADMIN = 'admin';

/**
 * Refuses a request that does not present the admin token (`Authorization: Bearer <token>`), whose
 * sha256 the configuration holds; compared in constant time. Without one configured, administration
 * is off and every `/~admin/` request is refused.
 */
export function assertAdmin(request: FastifyRequest, adminTokenSha256: string | undefined): void {
  if (adminTokenSha256 === undefined) {
    throw new TesseraError('UNAUTHORIZED', 'Administration is off on this registry: its configuration sets no adminTokenSha256.');
  }
  const secret = /^Bearer[ \t]+(\S+)[ \t]*$/i.exec(request.headers.authorization ?? '')?.[1];
  const presented = Buffer.from(hashToken(secret ?? ''), 'hex');
  const expected = Buffer.from(adminTokenSha256, 'hex');
  if (secret === undefined || presented.length !== expected.length || !timingSafeEqual(presented, expected)) {
    throw new TesseraError('UNAUTHORIZED', 'The admin token is required: send "Authorization: Bearer <admin token>".');
  }
}
