import { AuditLog, type AuditEntry } from '../../src/audit/audit-log';
import type { RegistryConfig } from '../../src/config/config';
import { hashToken } from '../../src/publish/tenant-tokens';
import type { StorageAdapter } from '../../src/storage/storage-adapter';
import { publishTokens } from '../publish/publish-helpers';
import { request } from '../helpers/start-registry';

export const ADMIN_TOKEN = 'administrator-secret-token';

/** The greeters' and the shop's publish tokens (publish-helpers.ts), and the administrator's. */
export function lifecycleTokens(config: RegistryConfig): void {
  config.publishTokens = publishTokens();
  config.adminTokenSha256 = hashToken(ADMIN_TOKEN);
}

const bearer = (token: string | undefined): Record<string, string> => (token === undefined ? {} : { authorization: `Bearer ${token}` });

/** `DELETE <url><name>/<version>`. */
export const unpublish = (url: string, id: string, token?: string) => request(`${url}${id}`, { method: 'DELETE', headers: bearer(token) });

/** `POST <url><name>/<version>/~deprecate` with `{message}`. */
export const deprecate = (url: string, id: string, token: string | undefined, message: unknown) =>
  request(`${url}${id}/~deprecate`, { method: 'POST', headers: { ...bearer(token), 'content-type': 'application/json' }, body: JSON.stringify({ message }) });

/** `DELETE <url><name>/<version>/~deprecate`. */
export const undeprecate = (url: string, id: string, token?: string) => request(`${url}${id}/~deprecate`, { method: 'DELETE', headers: bearer(token) });

/** The lifecycle and audit records storage holds: what a refused request must leave untouched. */
export async function lifecycleRecords(storage: StorageAdapter): Promise<{ unpublished: string[]; deprecations: string[]; audit: number; lifecycleEntries: string[] }> {
  return {
    unpublished: await storage.listRecords('unpublished/'),
    deprecations: await storage.listRecords('deprecations/'),
    audit: (await lifecycleAudit(storage)).entries.length,
    lifecycleEntries: (await storage.listRecords('changes/')).filter((key) => key.endsWith('~lifecycle')),
  };
}

/** Polls `probe` until it answers true; rejects after `timeoutMs` (a busy machine's allowance, never a measured bound). */
export async function eventually(probe: () => Promise<boolean>, timeoutMs = 15_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await probe())) {
    if (Date.now() > deadline) throw new Error(`the condition did not hold within ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** The audit log's entries of lifecycle changes (publishes, audited too, left out), in order. */
export async function lifecycleAudit(storage: StorageAdapter): Promise<{ entries: AuditEntry[] }> {
  const { entries } = await new AuditLog(storage).read({ limit: 1000 });
  return { entries: entries.filter((entry) => entry.action !== 'publish') };
}
