import type { ComponentVersion } from './component-version';

/**
 * The tenant a published version belongs to (decisions §13): the one whose token published it, as
 * its descriptor records; a version published before tenants were recorded belongs to the
 * configured default tenant. Bounded: only tenants that ever published, and the default.
 */
export const tenantOf = (version: ComponentVersion | undefined, defaultTenant: string): string => version?.descriptor.oc.publisher?.tenant ?? defaultTenant;
