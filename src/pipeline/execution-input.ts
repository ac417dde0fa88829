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
  const { cookieScope, headers } = request;
  return JSON.stringify({
    op: request.action === undefined ? 'render' : 'action',
    action: request.action,
    mode: request.mode,
    params: request.params,
    acceptLanguage: parseAcceptLanguage(stringHeader(request.given['__ocAcceptLanguage']) ?? stringHeader(headers['accept-language'])),
    baseUrl: request.baseUrl,
    requestHeaders: headersForComponent(cookieScope, headers),
    staticPath: request.staticPath,
    // The component's cookies the visitor holds, `[name, bytes]`, and the bytes and names its tenant's
    // other components' cookies hold: setCookie bounds the jar by them.
    heldCookies: cookiesHeldBy(cookieScope, headers),
    tenantCookieBytes: request.tenantCookies.bytes,
    tenantCookieNames: request.tenantCookies.names,
  });
}

/** Where a version's static files are served from: under `staticBaseUrl` when set, else under the call's base URL. */
export const staticPathOf = (base: string, component: string, version: string): string => `${base}${component}/${version}/static/`;
