import type { RequestHeaders } from './call-values';

/**
 * Cookies of many tenants on one origin (decisions §11). The registry sends a cookie that component
 * `C` sets as `name` under the name `oc.C.name`, `C` being its cookie scope (its name, then
 * `~<generation>` once the name has moved: src/catalog/component-version.ts); the browser (or a server-side client forwarding the
 * browser's `Cookie`) sends it back under that name. Before a component's server logic sees the
 * request's `Cookie`, its own cookies get their names back (`oc.C.name=v` → `name=v`), every other
 * component's are removed, and the site's own cookies pass through as sent. Component names are
 * kebab-case, so the first dot after `oc.` ends the owner's name.
 */
const PREFIX = 'oc.';

/** The name under which the registry sends a cookie that `component` set as `name`. */
export const scopedCookieName = (component: string, name: string): string => `${PREFIX}${component}.${name}`;

/** The request headers as `component` sees them: the `Cookie` header filtered as above; the rest untouched. */
export const headersForComponent = (component: string, headers: RequestHeaders): RequestHeaders => filterCookies(headers, component);

/**
 * The headers a parent passes to a nested render, without any component's cookie: the parent was
 * given none under its scoped name (its own came back under their plain names, others' were
 * removed), so one there would be forged, to make another tenant read a value it never set.
 */
export const headersFromParent = (headers: RequestHeaders): RequestHeaders => filterCookies(headers, undefined);

/** A request without cookies of other components (the usual case): one answer for all of them. */
const none = Object.freeze({ bytes: 0, names: 0 });

/** The headers without their `Cookie`. */
export function withoutCookie(headers: RequestHeaders): RequestHeaders {
  const { cookie: _cookie, ...rest } = headers;
  return rest;
}

/**
 * The cookies of `component` the visitor holds, as the request's `Cookie` header lists them: each
 * plain name with the bytes it takes there (`oc.C.name=value`), summed when a name comes more than
 * once (the same name under two paths). What setCookie may still add is decided from them.
 */
export function cookiesHeldBy(component: string, headers: RequestHeaders): Array<[string, number]> {
  const cookie = headers['cookie'];
  if (cookie === undefined) return [];
  const sent = Array.isArray(cookie) ? cookie.join('; ') : cookie;
  const own = scopedCookieName(component, '');
  if (!sent.includes(own)) return [];
  const held = new Map<string, number>();
  for (const pair of sent.split(';')) {
    const trimmed = pair.trim();
    if (!trimmed.startsWith(own)) continue;
    const equals = trimmed.indexOf('=');
    const name = trimmed.slice(own.length, equals === -1 ? undefined : equals);
    held.set(name, (held.get(name) ?? 0) + trimmed.length);
  }
  return [...held];
}

/**
 * The bytes the visitor's cookies of other components than `component` hold, and how many names, of
 * those `counted` accepts (its tenant's): one tenant's components together are bounded in the jar too.
 */
export function cookiesOfOthers(component: string, headers: RequestHeaders, counted: (other: string) => boolean): { bytes: number; names: number } {
  const cookie = headers['cookie'];
  if (cookie === undefined) return none;
  const sent = Array.isArray(cookie) ? cookie.join('; ') : cookie;
  if (!sent.includes(PREFIX)) return none;
  const own = scopedCookieName(component, '');
  const owners = new Map<string, boolean>();
  const names = new Set<string>();
  let bytes = 0;
  for (const pair of sent.split(';')) {
    const trimmed = pair.trim();
    const ownerEnd = trimmed.indexOf('.', PREFIX.length);
    if (!trimmed.startsWith(PREFIX) || ownerEnd === -1 || trimmed.startsWith(own)) continue;
    const owner = trimmed.slice(PREFIX.length, ownerEnd);
    let ours = owners.get(owner);
    if (ours === undefined) owners.set(owner, (ours = counted(owner)));
    if (!ours) continue;
    bytes += trimmed.length;
    const equals = trimmed.indexOf('=');
    names.add(equals === -1 ? trimmed : trimmed.slice(0, equals));
  }
  return { bytes, names: names.size };
}

/** Drops the component cookies of `Cookie` but those of `owner`, which get their plain names back. */
function filterCookies(headers: RequestHeaders, owner: string | undefined): RequestHeaders {
  const cookie = headers['cookie'];
  if (cookie === undefined) return headers;
  const sent = Array.isArray(cookie) ? cookie.join('; ') : cookie;
  if (!sent.includes(PREFIX)) return headers;
  const own = owner === undefined ? undefined : scopedCookieName(owner, '');
  const kept: string[] = [];
  for (const pair of sent.split(';')) {
    const trimmed = pair.trim();
    if (trimmed === '') continue;
    const equals = trimmed.indexOf('=');
    const name = equals === -1 ? trimmed : trimmed.slice(0, equals);
    const setByComponent = name.startsWith(PREFIX) && name.indexOf('.', PREFIX.length) !== -1;
    if (!setByComponent) kept.push(trimmed);
    else if (own !== undefined && name.startsWith(own)) kept.push(trimmed.slice(own.length));
  }
  const filtered: RequestHeaders = { ...headers };
  if (kept.length > 0) filtered['cookie'] = kept.join('; ');
  else delete filtered['cookie'];
  return filtered;
}
