import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { AuditQuery } from '../../audit/audit-log';
import type { RegistryServices } from '../registry-services';
import { auditAnswer, auditQuery } from './admin-schemas';

/** `GET /~admin/audit`: the audit log, oldest first, paged (`?after=<next>&limit=`) and narrowed (`?tenant=`, `?component=`). */
export function registerAdminAudit(app: FastifyInstance, services: RegistryServices): void {
  app.get('/~admin/audit', { schema: { querystring: auditQuery, response: { 200: auditAnswer } } }, async (request: FastifyRequest<{ Querystring: AuditQuery }>) =>
    services.audit.read(request.query),
  );
}
