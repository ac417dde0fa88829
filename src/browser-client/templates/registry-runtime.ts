import type { Oc } from '../oc-global';
import type { TemplateInfo } from '../types';

const pageOc = (): Oc => (window as unknown as { oc: Oc }).oc;

/**
 * A file the registry serves beside its components, found from a template's URL: `template.src`
 * is always `<registry base><name>/<version>/static/template.js`.
 */
export const registryFile = (templateSrc: string, path: string): string => new URL(`../../../${path}`, templateSrc).href;

// One load per runtime URL, even when several components of the type render at the same time.
const runtimes = new Map<string, Promise<void>>();

/**
 * Loads a runtime the registry serves at `/oc-client/vendor/<file>` (unless the page already has
 * its global), then the component's `template.js`, whose bundle reads that runtime as it runs:
 * the page loads the runtime once for all its components of the type.
 */
export function loadViewWithRuntime(template: TemplateInfo, runtime: { global: string; file: string }): Promise<unknown> {
  const oc = pageOc();
  const url = registryFile(template.src, `oc-client/vendor/${runtime.file}`);
  let loading = runtimes.get(url);
  if (!loading) {
    loading = new Promise<void>((resolve) => oc.require(runtime.global, url, () => resolve()));
    runtimes.set(url, loading);
  }
  return loading.then(() => new Promise((resolve) => oc.require(['oc', 'components', template.key], template.src, resolve)));
}
