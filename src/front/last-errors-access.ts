import { tenantOf } from '../catalog/tenant-of';
import { isAdminToken } from '../config/admin-token';
import { matchesNamePattern } from '../config/name-pattern';
import { publisherOf } from '../publish/tenant-tokens';
import { LAST_ERRORS_PER_COMPONENT, type LastError } from '../tail/last-errors';
import type { RegistryServices } from './registry-services';

/** What a component's page shows of its last failures to whoever asks. */
export type LastErrorsSight =
  /** No token: the form that asks for one, nothing else. */
  | { kind: 'form' }
  /** A token that may not see them: its coded refusal, and the form again. */
  | { kind: 'refused'; status: 401 | 403; code: 'UNAUTHORIZED' | 'FORBIDDEN'; message: string }
  /** The failures this reader may see, newest first; `admin`: every tenant's, each with its tenant. */
  | { kind: 'shown'; reader: string; admin: boolean; errors: LastError[] };

/**
 * Who may read `name`'s last failures (decisions §16): the administrator, every entry; a tenant, with
 * one of its live tokens whose patterns cover the name, the entries of its own executions, when it
 * owns the component now or owned it when one of them ran. Nobody else: another tenant's token is
 * refused, and the failures of this replica's front threads are gathered only once a reader is known.
 */
export async function lastErrorsSight(authorization: string | undefined, name: string, services: RegistryServices): Promise<LastErrorsSight> {
  const { config, tenants, catalog } = services;
  if (authorization === undefined) return { kind: 'form' };
  if (isAdminToken(authorization, config.adminTokenSha256)) return { kind: 'shown', reader: 'the administrator', admin: true, errors: (await services.lastErrors(name)).slice(0, LAST_ERRORS_PER_COMPONENT) };
  const publisher = publisherOf(authorization, config.publishTokens, tenants);
  if (!publisher) return { kind: 'refused', status: 401, code: 'UNAUTHORIZED', message: "The token is neither a live publish token of a tenant nor the administrator's." };
  const { tenant, components } = publisher;
  const forbidden = { kind: 'refused', status: 403, code: 'FORBIDDEN', message: `Tenant "${tenant}" may not read the last errors of "${name}": they are its owner's.` } as const;
  if (components !== undefined && !matchesNamePattern(components, name)) return forbidden;
  const errors = (await services.lastErrors(name)).filter((error) => error.tenant === tenant).slice(0, LAST_ERRORS_PER_COMPONENT);
  const owner = tenantOf(catalog.latest(name), config.tenants.default);
  if (owner !== tenant && errors.length === 0) return forbidden;
  return { kind: 'shown', reader: `tenant "${tenant}"`, admin: false, errors };
}

/** The token a form posted (`token=…`), as an `Authorization` header; none when the field is missing or empty. */
export function authorizationOfForm(body: unknown): string | undefined {
  const token = typeof body === 'object' && body !== null ? (body as Record<string, unknown>).token : undefined;
  return typeof token === 'string' && token.trim() !== '' ? `Bearer ${token.trim()}` : undefined;
}
