import type { RegistryConfig } from '../../src/config/config';
import { hashToken } from '../../src/publish/tenant-tokens';
import { request } from '../helpers/start-registry';

export const ADMIN_TOKEN = 'admin-secret-token';

/** Administration on, with ADMIN_TOKEN. */
export const withAdmin = (config: RegistryConfig): void => {
  config.adminTokenSha256 = hashToken(ADMIN_TOKEN);
};

/** A `/~admin/` request with the admin token (or `token` instead). */
export function admin(url: string, method: string, path: string, body?: unknown, token = ADMIN_TOKEN) {
  const headers: Record<string, string> = {};
  if (token !== '') headers.authorization = `Bearer ${token}`;
  if (body !== undefined) headers['content-type'] = 'application/json';
  return request(`${url}~admin/${path}`, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
}

/** Creates a tenant and one token of it; answers the token's id and secret. */
export async function tenantWithToken(url: string, tenant: Record<string, unknown>): Promise<{ id: string; token: string }> {
  const created = await admin(url, 'POST', 'tenants', tenant);
  if (created.status !== 201) throw new Error(`tenant not created: ${created.text}`);
  const token = await admin(url, 'POST', `tenants/${String(tenant.name)}/tokens`);
  if (token.status !== 201) throw new Error(`token not created: ${token.text}`);
  return { id: token.body.id, token: token.body.token };
}
