import { parseAcceptLanguage } from './accept-language';
import { stringHeader, type RequestHeaders } from './call-values';
import { cookiesHeldBy, headersForComponent } from './component-cookies';
import type { RenderMode } from './render-mode';

/** What one execution is told of its request (workers/prelude/build-ctx.ts reads it). */
export interface ExecutionRequest {
  /** The component's cookie scope (src/catalog/component-version.ts): which of the visitor's cookies are its own. */
  cookieScope: string;
  action?: string;
  mode: RenderMode;
  params: Record<string, unknown>;
  /** The parameters as given: `__ocAcceptLanguage` there overrides the header. */
  given: Record<string, unknown>;
  headers: RequestHeaders;
  baseUrl: string;
  staticPath: string;
  /** The bytes the visitor's cookies of the component's tenant's other components hold, and their names. */
  tenantCookies: { bytes: number; names: number };
}

/**
 * The JSON of an execution's input, as the front builds it and as a sandbox host builds it for a
 * child it runs under a lease: only what changes per request crosses per execution; the version's
 * constants (name, env, template types, plugins) are installed once in its context with its code.
 */
export function executionInput(request: ExecutionRequest): string {
  const own = JSON.stringify({
    op: request.action === undefined ? 'render' : 'action',
    action: request.action,
    mode: request.mode,
    params: request.params,
    baseUrl: request.baseUrl,
    staticPath: request.staticPath,
    tenantCookieBytes: request.tenantCookies.bytes,
    tenantCookieNames: request.tenantCookies.names,
  });
  // `own` is an object's JSON that holds at least `op`: what its request shares goes in before its closing brace.
  return `${own.slice(0, -1)},${sharedPart(request)}}`;
}

/** The headers whose parts are kept below, by cookie scope and language, until the turn ends: the items of one batch share one headers object. */
let sharedOf: RequestHeaders | undefined;
/** The first key asked of them and its part; the others' (a batch of several components) in `others`. */
let firstKey = '';
let firstPart = '';
let others: Map<string, string> | undefined;

/**
 * The JSON members an execution's input takes from its request's headers (its accept-language, its
 * headers with the component's own cookies alone, the cookies it holds), built once for the items
 * of a batch that share a cookie scope: a page's headers (a kilobyte or two, cookies included) are
 * otherwise filtered and written again for each item.
 */
function sharedPart(request: ExecutionRequest): string {
  const { cookieScope, headers } = request;
  const language = stringHeader(request.given['__ocAcceptLanguage']) ?? stringHeader(headers['accept-language']);
  // A scope is kebab-case: a space cannot be part of one.
  const key = language === undefined ? cookieScope : `${cookieScope} ${language}`;
  if (headers !== sharedOf) {
    // Kept for the items built in the same turn (a batch's are), then let go: a visitor's cookies are
    // not held past its request's dispatch.
    if (sharedOf === undefined) queueMicrotask(forget);
    sharedOf = headers;
    others = undefined;
    firstKey = key;
    return (firstPart = partOf(cookieScope, headers, language));
  }
  if (key === firstKey) return firstPart;
  others ??= new Map();
  let part = others.get(key);
  if (part === undefined) others.set(key, (part = partOf(cookieScope, headers, language)));
  return part;
}

function forget(): void {
  sharedOf = undefined;
  others = undefined;
  firstKey = firstPart = '';
}

function partOf(cookieScope: string, headers: RequestHeaders, language: string | undefined): string {
  return (
    `"acceptLanguage":${JSON.stringify(parseAcceptLanguage(language))},` +
    `"requestHeaders":${JSON.stringify(headersForComponent(cookieScope, headers))},` +
    // The component's cookies the visitor holds, `[name, bytes]`, and (above) the bytes and names its
    // tenant's other components' cookies hold: setCookie bounds the jar by them.
    `"heldCookies":${JSON.stringify(cookiesHeldBy(cookieScope, headers))}`
  );
}

/** Where a version's static files are served from: under `staticBaseUrl` when set, else under the call's base URL. */
export const staticPathOf = (base: string, component: string, version: string): string => `${base}${component}/${version}/static/`;
