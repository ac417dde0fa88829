import type { External, RenderedView, TemplateInfo, ViewProps } from '../types';

/**
 * The seam for template types: everything the browser client knows about one type lives in one
 * small module implementing this interface, listed once in `templates/index.ts` under its type
 * name (`oc-template-es6`). A type whose views mount themselves (hydration) answers `{html, mount}`
 * from `render`; a type whose compiled view is not a classic script registering itself under
 * `oc.components[key]` (an ES module, say) provides `loadView`.
 */
export interface TemplateRenderer {
  /** Scripts loaded (once, in order) before the first view of this type renders. */
  readonly externals: readonly External[];
  /** How the compiled view arrives; without it `template.js` is loaded as a script that registers `oc.components[key]`. */
  loadView?(template: TemplateInfo): Promise<unknown>;
  /** Turns the compiled view and the view's props into HTML (or HTML plus a mount step). */
  render(view: unknown, props: ViewProps): RenderedView;
}

/** Views that are plain functions from props to HTML: es6, jade, and types a page registers without a module. */
export function callView(view: unknown, props: ViewProps): string {
  if (typeof view !== 'function') throw new TypeError('the compiled view is not a function');
  return String((view as (props: ViewProps) => unknown)(props));
}
