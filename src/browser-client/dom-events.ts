import type { RenderFailure } from './oc-global';

/** `detail` of the contract's `oc:rendered` and `oc:error` DOM events (decisions §10). */
export interface ComponentEventDetail {
  name: string | undefined;
  version: string | undefined;
  href: string | null;
  id: string;
  element: HTMLElement;
}

export interface ComponentErrorDetail extends ComponentEventDetail {
  status: number | undefined;
  code: string | undefined;
  error: string;
}

/** `oc:rendered` on `document`, once the component's HTML is in its element. */
export function dispatchRendered(element: HTMLElement, name: string | undefined, version: string | undefined): void {
  const detail: ComponentEventDetail = { name, version, href: element.getAttribute('href'), id: element.id, element };
  document.dispatchEvent(new CustomEvent('oc:rendered', { detail }));
}

/** `oc:error` on `document`, once a component has failed for good (retries included). */
export function dispatchError(element: HTMLElement, failure: RenderFailure): void {
  const href = element.getAttribute('href');
  const fromHref = href ? nameAndVersionOf(href) : { name: undefined, version: undefined };
  const detail: ComponentErrorDetail = {
    name: failure.name ?? fromHref.name,
    version: failure.version ?? fromHref.version,
    href,
    id: element.id,
    element,
    status: failure.status,
    code: failure.code,
    error: failure.error,
  };
  document.dispatchEvent(new CustomEvent('oc:error', { detail }));
}

const VERSION_EXPRESSION = /^(latest|[~^]?\d+(\.(\d+|[xX*]))*(\.\d+)?(-[\w.]+)?|[xX*])$/;

/**
 * Name and version expression read from a component's address when the registry could not say
 * (network failure): `…/<name>[/<version>][/]?…`.
 */
function nameAndVersionOf(href: string): { name: string | undefined; version: string | undefined } {
  let segments: string[];
  try {
    segments = new URL(href, document.baseURI).pathname.split('/').filter(Boolean).map(decodeURIComponent);
  } catch {
    return { name: undefined, version: undefined };
  }
  const last = segments[segments.length - 1];
  if (last !== undefined && segments.length > 1 && VERSION_EXPRESSION.test(last)) return { name: segments[segments.length - 2], version: last };
  return { name: last, version: '' };
}
