import type { FastifyReply } from 'fastify';
import type { Cookie, RenderResult } from '../pipeline/render';

/** Puts the headers and cookies that server logic set on the HTTP response. */
export function applyComponentHeaders(reply: FastifyReply, result: Pick<RenderResult, 'headers' | 'cookies'>): void {
  for (const [name, value] of Object.entries(result.headers)) {
    // A `Vary` of the component's adds to the registry's (`Origin`, with a list of CORS origins),
    // never replaces it: a shared cache would otherwise give one origin's CORS answer to another.
    const registryVary = name.toLowerCase() === 'vary' ? reply.getHeader('vary') : undefined;
    reply.header(name, registryVary === undefined ? value : `${String(registryVary)}, ${value}`);
  }
  if (result.cookies.length > 0) reply.header('set-cookie', result.cookies.map(serializeCookie));
}

/**
 * The longest a component's cookie lives: 7 days (Safari's cap for cookies a page's script sets).
 * The jar is the origin's, shared by every tenant: whatever a component leaves there, past the
 * bounds the sandbox checks per answer (answers running at the same time each see the same jar),
 * is gone within a week rather than after the years it asked for.
 */
export const MAX_COOKIE_AGE_MS = 7 * 24 * 60 * 60 * 1000;

/** `Set-Cookie` value with Express's conventions (value URI-encoded, `maxAge` in milliseconds), its lifetime capped. */
function serializeCookie({ name, value, options }: Cookie): string {
  let cookie = `${name}=${encodeURIComponent(value)}`;
  const now = Date.now();
  if (typeof options['maxAge'] === 'number' && Number.isFinite(options['maxAge'])) {
    const maxAge = Math.min(options['maxAge'], MAX_COOKIE_AGE_MS);
    cookie += `; Max-Age=${Math.floor(maxAge / 1000)}; Expires=${new Date(now + maxAge).toUTCString()}`;
  } else if (typeof options['expires'] === 'string' || typeof options['expires'] === 'number') {
    const expires = new Date(options['expires']);
    if (!Number.isNaN(expires.getTime())) cookie += `; Expires=${new Date(Math.min(expires.getTime(), now + MAX_COOKIE_AGE_MS)).toUTCString()}`;
  }
  // `domain` is accepted and not applied (stricter than OC): a component's cookies are host-only, so
  // one name is one cookie in the visitor's jar (Domain copies of it would pass the jar's bounds),
  // and none reaches the site's other hosts.
  // One path for every component cookie, whatever `path` said (the sandbox accepts only prefixes of the
  // registry's own path, which all come back with its requests): a browser keeps one cookie per name
  // and path, and a name set under several paths would be several cookies, past the names a
  // component and a tenant may keep in the jar every tenant shares.
  cookie += '; Path=/';
  if (options['httpOnly'] === true) cookie += '; HttpOnly';
  if (options['secure'] === true) cookie += '; Secure';
  const sameSite = options['sameSite'] === true ? 'strict' : typeof options['sameSite'] === 'string' ? options['sameSite'].toLowerCase() : undefined;
  if (sameSite === 'strict') cookie += '; SameSite=Strict';
  else if (sameSite === 'lax') cookie += '; SameSite=Lax';
  else if (sameSite === 'none') cookie += '; SameSite=None';
  return cookie;
}
