import type { Intrinsics } from './intrinsics';

/**
 * Runs INSIDE each isolate (see prelude-source.ts; self-contained, injected as text): the rules of
 * the headers that leave the sandbox, those a component sets on its answer (`ctx.setHeader`) and
 * those it passes to a nested render (decisions §11, §13).
 */
export function headerRules(intrinsics: Intrinsics) {
  'use strict';
  const { TypeErrorCtor, RangeErrorCtor, isArray, keys, hasOwn } = intrinsics;
  const HOP_BY_HOP = ['connection', 'content-length', 'transfer-encoding', 'keep-alive', 'upgrade', 'proxy-connection', 'te', 'trailer', 'host', 'content-encoding'];
  // Headers the registry owns (decisions §11): cookies go through setCookie and its checks; the
  // others decide how the answer is read and who may read it, for every tenant on the origin.
  // Deprecation: the registry marks a deprecated version itself; a component's own would tell clients
  // that read RFC 9745 that a live version is going away.
  const REGISTRY_OWNED = ['set-cookie', 'content-type', 'content-security-policy', 'strict-transport-security', 'x-content-type-options', 'deprecation'];
  // Headers a browser applies to the whole origin, beyond the answer that carries them: one tenant
  // would wipe every tenant's cookies and storage (Clear-Site-Data), have the origin's network
  // errors, other tenants' URLs among them, reported to a server of its own (NEL, Report-To,
  // Reporting-Endpoints), move the origin elsewhere (Alt-Svc) or set its client hints and login state.
  const ORIGIN_WIDE = ['clear-site-data', 'nel', 'report-to', 'reporting-endpoints', 'alt-svc', 'accept-ch', 'critical-ch', 'set-login', 'service-worker-allowed'];
  // Headers that make a browser fetch or navigate somewhere of the component's choosing: an answer
  // would send the visitor on (Refresh, Location), have it load, prefetch or prerender URLs (Link,
  // Speculation-Rules, SourceMap), post reports (CSP's report-only policy, Expect-CT, X-XSS-Protection's
  // report=), or fetch the same answer again (Activate-Storage-Access: retry). Chained, answers that
  // each set a few cookies and send the visitor to the next fill the origin's jar in seconds.
  const FETCH_OR_NAVIGATE = [
    'refresh', 'location', 'content-location', 'link', 'speculation-rules', 'sourcemap', 'x-sourcemap',
    'content-security-policy-report-only', 'expect-ct', 'x-xss-protection', 'activate-storage-access', 'supports-loading-mode',
  ];
  const isRefusedHeader = (lowerName: string) =>
    HOP_BY_HOP.indexOf(lowerName) !== -1 ||
    REGISTRY_OWNED.indexOf(lowerName) !== -1 ||
    ORIGIN_WIDE.indexOf(lowerName) !== -1 ||
    FETCH_OR_NAVIGATE.indexOf(lowerName) !== -1 ||
    lowerName.startsWith('access-control-') ||
    lowerName.startsWith('attribution-reporting-');
  const TOKEN = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;
  const CRLF = /[\r\n]/;
  // What HTTP carries in a header's value (Node refuses the rest when the front writes the answer):
  // tab, visible ASCII and space, and the bytes of Latin-1 past ASCII.
  const NOT_HEADER_TEXT = /[^\t\x20-\x7e\x80-\xff]/;
  const MAX_HEADERS = 50;
  const MAX_NAME_CHARS = 256;
  const MAX_HEADER_VALUE_CHARS = 8192;

  /** `ctx.setHeader(name, value)` on the answer's `headers`. */
  const setHeader = (headers: Record<string, string>, name: unknown, value: unknown): void => {
    if (typeof name !== 'string' || typeof value !== 'string') throw new TypeErrorCtor('setHeader(name, value) takes two strings.');
    if (!TOKEN.test(name) || isRefusedHeader(name.toLowerCase())) throw new TypeErrorCtor(`Header "${name}" cannot be set by a component.`);
    if (CRLF.test(value)) throw new TypeErrorCtor(`The value of header "${name}" contains a line break.`);
    if (NOT_HEADER_TEXT.test(value)) throw new TypeErrorCtor(`The value of header "${name}" contains a character HTTP cannot carry.`);
    if (name.length > MAX_NAME_CHARS || value.length > MAX_HEADER_VALUE_CHARS) throw new RangeErrorCtor(`Header "${name.slice(0, MAX_NAME_CHARS)}" is over its size limit.`);
    const key = name.toLowerCase();
    if (!hasOwn(headers, key) && keys(headers).length >= MAX_HEADERS) throw new RangeErrorCtor(`A component may set at most ${MAX_HEADERS} headers.`);
    headers[key] = value;
  };

  // A child reads its request headers as HTTP gives them: lowercase names, string values.
  const nestedHeaders = (given: unknown): Record<string, string> | undefined => {
    if (given === undefined || given === null) return undefined;
    if (typeof given !== 'object' || isArray(given)) throw new TypeErrorCtor('renderComponent: options.headers must be an object of header names and string values.');
    const headers: Record<string, string> = {};
    for (const name of keys(given)) {
      const value = (given as Record<string, unknown>)[name];
      if (!TOKEN.test(name)) throw new TypeErrorCtor(`renderComponent: "${name.slice(0, MAX_NAME_CHARS)}" is not a header name.`);
      if (typeof value !== 'string') throw new TypeErrorCtor(`renderComponent: the value of header "${name.slice(0, MAX_NAME_CHARS)}" must be a string.`);
      headers[name.toLowerCase()] = value;
    }
    return headers;
  };

  /** Whether a name is an HTTP token (a cookie's name must be one too). */
  const isToken = (name: string): boolean => TOKEN.test(name);

  return { setHeader, nestedHeaders, isToken, MAX_NAME_CHARS };
}

export type HeaderRules = ReturnType<typeof headerRules>;
