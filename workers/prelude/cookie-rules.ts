import type { CookieBounds } from '../../src/sandbox/tenancy-policy';
import type { Intrinsics } from './intrinsics';

/** A cookie an answer sets, as the front writes it. */
interface SetCookie {
  name: string;
  value: string;
  options: Record<string, unknown>;
}

/**
 * Runs INSIDE each isolate (see prelude-source.ts; self-contained, injected as text): the rules of
 * the cookies a component sets. They go into the one jar every tenant of the origin shares, so a
 * component's cookies, and its tenant's components' together, are bounded where the visitor keeps
 * them (the names and bytes the request says it holds, plus what this answer sets), and one answer
 * sets at most a component's share. Bytes are counted as the browser keeps a cookie:
 * `oc.<component>.<name>=<URI-encoded value>`. The bounds, their reasons and the attacks they
 * answer: src/sandbox/tenancy-policy.ts.
 */
export function cookieRules(intrinsics: Intrinsics, bounds: CookieBounds, cookieScope: string, isToken: (name: string) => boolean, maxNameChars: number) {
  'use strict';
  const { TypeErrorCtor, RangeErrorCtor, keys } = intrinsics;
  const MAX_COOKIES = bounds.componentNames;
  const MAX_COOKIE_BYTES = bounds.cookieBytes;
  const MAX_COOKIES_BYTES = bounds.componentBytes;
  const MAX_TENANT_COOKIES_BYTES = bounds.tenantBytes;
  const MAX_TENANT_COOKIES = bounds.tenantNames;
  const SCOPE_CHARS = `oc.${cookieScope}.`.length;
  const encodeCookieValue = encodeURIComponent;
  // `path` and `domain` are not among them: the registry writes every component cookie host-only under
  // its own path (decisions §11), so what a component says of either is read by nobody, and never fails it.
  const COOKIE_OPTIONS = ['httpOnly', 'secure', 'maxAge', 'expires', 'sameSite'];

  /**
   * The cookies one answer sets, checked against what the visitor already holds of this component
   * (`held`: `[name, bytes]` from the request's Cookie header). Setting a name again in one answer
   * replaces it. Overwriting or deleting a held cookie is always allowed when it does not grow the jar.
   */
  const cookieJar = (held: Array<[string, number]> | undefined, tenantOthers: number, tenantOtherNames: number) => {
    const kept = new Map<string, number>(held);
    let keptBytes = 0;
    for (const size of kept.values()) keptBytes += size;
    const cookies: SetCookie[] = [];
    let answerBytes = 0;
    const set = (name: string, value: string, options: Record<string, unknown>, bytes: number) => {
      const earlier = cookies.findIndex((cookie) => cookie.name === name);
      const earlierBytes = earlier === -1 ? 0 : (kept.get(name) ?? 0);
      if (earlier === -1 && cookies.length >= MAX_COOKIES) throw new RangeErrorCtor(`A component may set at most ${MAX_COOKIES} cookies in one answer.`);
      if (answerBytes - earlierBytes + bytes > MAX_COOKIES_BYTES) throw new RangeErrorCtor(`The cookies of one answer may hold at most ${MAX_COOKIES_BYTES} bytes together.`);
      const before = kept.get(name);
      if (before === undefined && kept.size >= MAX_COOKIES) {
        throw new RangeErrorCtor(`setCookie: a visitor keeps at most ${MAX_COOKIES} cookies of one component; "${name}" would be one more.`);
      }
      if (before === undefined && tenantOtherNames + kept.size >= MAX_TENANT_COOKIES) {
        throw new RangeErrorCtor(`setCookie: a visitor keeps at most ${MAX_TENANT_COOKIES} cookies of one tenant's components; "${name}" would be one more.`);
      }
      const after = keptBytes - (before ?? 0) + bytes;
      if (after > MAX_COOKIES_BYTES && after > keptBytes) {
        throw new RangeErrorCtor(`setCookie: a visitor keeps at most ${MAX_COOKIES_BYTES} bytes of one component's cookies.`);
      }
      if (tenantOthers + after > MAX_TENANT_COOKIES_BYTES && after > keptBytes) {
        throw new RangeErrorCtor(`setCookie: a visitor keeps at most ${MAX_TENANT_COOKIES_BYTES} bytes of the cookies of one tenant's components.`);
      }
      kept.set(name, bytes);
      keptBytes = after;
      answerBytes += bytes - earlierBytes;
      const cookie = { name, value, options };
      if (earlier === -1) cookies.push(cookie);
      else cookies[earlier] = cookie;
    };
    return { cookies, set };
  };

  /** `ctx.setCookie(name, value, options)` into the answer's jar. */
  const setCookie = (jar: ReturnType<typeof cookieJar>, name: unknown, value: unknown, options?: any): void => {
    if (typeof name !== 'string' || !isToken(name)) throw new TypeErrorCtor('setCookie: the cookie name must be a non-empty token.');
    if (typeof value !== 'string' && typeof value !== 'number' && typeof value !== 'boolean') throw new TypeErrorCtor('setCookie: the cookie value must be a string.');
    // The cookie as the front sends it, its value URI-encoded (a '€' is 9 bytes).
    const bytes = name.length > maxNameChars ? Infinity : SCOPE_CHARS + name.length + 1 + encodeCookieValue(String(value)).length;
    if (bytes > MAX_COOKIE_BYTES) throw new RangeErrorCtor(`setCookie: cookie "${name.slice(0, maxNameChars)}" is over its size limit of ${MAX_COOKIE_BYTES} bytes.`);
    const kept: Record<string, unknown> = {};
    if (options && typeof options === 'object') {
      for (const key of COOKIE_OPTIONS) if (options[key] !== undefined) kept[key] = key === 'expires' && options[key] instanceof Date ? options[key].toUTCString() : options[key];
      for (const key of keys(kept)) {
        if (typeof kept[key] === 'string' && (kept[key] as string).length > maxNameChars) throw new RangeErrorCtor(`setCookie: option "${key}" is over its size limit.`);
      }
    }
    jar.set(name, String(value), kept, bytes);
  };

  return { cookieJar, setCookie };
}

export type CookieRules = ReturnType<typeof cookieRules>;
