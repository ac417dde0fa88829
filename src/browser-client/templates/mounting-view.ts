import type { RenderedView, ViewProps } from '../types';

/**
 * What `template.js` of oc-template-esm and oc-template-react registers (src/templates/esm and
 * react, browser-entry.js): a view that renders itself into an element, hydrating markup the
 * server rendered, or mounting into an empty element.
 */
export interface MountingView {
  mount(element: Element, props: ViewProps): void;
  hydrate(element: Element, props: ViewProps): void;
  unmount?(element: Element): void;
}

export function isMountingView(view: unknown): view is MountingView {
  return typeof view === 'object' && view !== null && typeof (view as MountingView).mount === 'function' && typeof (view as MountingView).hydrate === 'function';
}

/** An unrendered answer: the same root element a server render writes, which the view mounts into once it is in the page. */
export function mountView(view: unknown, props: ViewProps): RenderedView {
  if (!isMountingView(view)) throw new TypeError('the compiled view does not mount itself');
  return {
    html: '<div data-oc-root></div>',
    mount(element) {
      view.mount(element.querySelector(':scope > [data-oc-root]') ?? element, props);
    },
  };
}
