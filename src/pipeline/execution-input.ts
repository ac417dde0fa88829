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
  /** A batch item's: what its batch's items take from the headers they share, written once (render-batch.ts makes one per batch). */
  shared?: BatchInputParts;
}

/**
 * The parts of a batch's inputs written from the headers its items share, by cookie scope and
 * language: a page's headers (a kilobyte or two, cookies included) are otherwise filtered and
 * written again for each item. Bound to the first headers object it is asked about: an item with
 * other headers gets its own part, never one written from another's.
 */
export class BatchInputParts {
  #headers: RequestHeaders | undefined;
  readonly #parts = new Map<string, string>();

  part(cookieScope: string, headers: RequestHeaders, language: string | undefined): string {
    this.#headers ??= headers;
    if (headers !== this.#headers) return partOf(cookieScope, headers, language);
    // A scope is kebab-case: a space cannot be part of one.
    const key = language === undefined ? cookieScope : `${cookieScope} ${language}`;
    let part = this.#parts.get(key);
    if (part === undefined) this.#parts.set(key, (part = partOf(cookieScope, headers, language)));
    return part;
  }
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
  return `${own.slice(0, -1)},${headersPart(request)}}`;
}

/** The JSON members an execution's input takes from its request's headers: its accept-language, its headers with the component's own cookies alone, the cookies it holds. */
function headersPart(request: ExecutionRequest): string {
  const { cookieScope, headers, shared } = request;
  const language = stringHeader(request.given['__ocAcceptLanguage']) ?? stringHeader(headers['accept-language']);
  return shared === undefined ? partOf(cookieScope, headers, language) : shared.part(cookieScope, headers, language);
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
