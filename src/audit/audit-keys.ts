/**
 * Where the audit log's records live in storage. Each entry has an id, `<day>/<time>-<random>`
 * (the UTC day, then milliseconds since the epoch zero-padded), which sorts in the order entries
 * were recorded; it is stored under that id in the whole log and again in the views that answer a
 * narrowed page without reading the rest:
 *
 * - `audit/<id>`: every entry, the log itself;
 * - `audit-by-tenant/<tenant>/<id>`: the entries of a tenant (none for the administrator acting on the registry);
 * - `audit-by-component/<name>/<id>`: the entries of a component's versions.
 *
 * Grouped by day, a page after a point is listed without listing the days before it, and retention
 * deletes whole days (audit-maintenance.ts). Entries of a registry before the views
 * (`audit/<time>-<random>`, no day) are moved to this layout by the same maintenance.
 */
export const LOG = 'audit/';
const BY_TENANT = 'audit-by-tenant/';
const BY_COMPONENT = 'audit-by-component/';

const TIME_DIGITS = 15;
/** What a tenant or component name must be to name a view's folder: what the routes and descriptors accept. */
const FOLDER_NAME = /^[a-z0-9-]+$/;

/** The id of an entry recorded at `time`, with its random part. */
export const entryId = (time: number, random: string): string => `${new Date(time).toISOString().slice(0, 10)}/${String(time).padStart(TIME_DIGITS, '0')}-${random}`;

/** The id of a key of the log or of a view (what follows its folder). */
export function idOfKey(key: string, folder: string): string {
  return key.slice(folder.length);
}

/** When an entry was recorded, from its key (either layout); undefined for a key that is none of the log's. */
export function timeOfKey(key: string): number | undefined {
  const match = /^audit\/(?:\d{4}-\d{2}-\d{2}\/)?(\d{15})-[0-9a-f]+$/.exec(key);
  return match ? Number(match[1]) : undefined;
}

/** A key of the log written before the days (`audit/<time>-<random>`): its id in today's layout. */
export function dayIdOfFlatKey(key: string): string | undefined {
  const match = /^audit\/((\d{15})-[0-9a-f]+)$/.exec(key);
  return match ? `${new Date(Number(match[2])).toISOString().slice(0, 10)}/${match[1]}` : undefined;
}

/** The folder a page is listed from: the narrowest view that the query names; undefined when no entry can match it. */
export function folderFor(query: { tenant?: string; component?: string }): string | undefined {
  if (query.component !== undefined) return FOLDER_NAME.test(query.component) ? `${BY_COMPONENT}${query.component}/` : undefined;
  if (query.tenant !== undefined) return FOLDER_NAME.test(query.tenant) ? `${BY_TENANT}${query.tenant}/` : undefined;
  return LOG;
}

/** Every key an entry is stored under: the log's, then its views'. */
export function keysOf(id: string, entry: { tenant: string | null; component?: string }): string[] {
  const keys = [`${LOG}${id}`];
  if (entry.tenant !== null && FOLDER_NAME.test(entry.tenant)) keys.push(`${BY_TENANT}${entry.tenant}/${id}`);
  const at = entry.component?.lastIndexOf('@') ?? -1;
  const name = at > 0 ? entry.component!.slice(0, at) : undefined;
  if (name !== undefined && FOLDER_NAME.test(name)) keys.push(`${BY_COMPONENT}${name}/${id}`);
  return keys;
}
