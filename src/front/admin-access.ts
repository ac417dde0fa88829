import type { FastifyRequest } from 'fastify';
import { isAdminToken } from '../config/admin-token';
import { TesseraError } from '../errors/errors';

/** Who the audit log names for what the administrator does. */
export const ADMIN = 'admin';

/**
 * Refuses a request that does not present the admin token (`Authorization: Bearer <token>`), whose
 * sha256 the configuration holds. Without one configured, administration is off and every
 * `/~admin/` request is refused.
 */
export function assertAdmin(request: FastifyRequest, adminTokenSha256: string | undefined): void {
  if (adminTokenSha256 === undefined) {
    throw new TesseraError('UNAUTHORIZED', 'Administration is off on this registry: its configuration sets no adminTokenSha256.');
  }
  if (!isAdminToken(request.headers.authorization, adminTokenSha256)) {
    throw new TesseraError('UNAUTHORIZED', 'The admin token is required: send "Authorization: Bearer <admin token>".');
  }
}
