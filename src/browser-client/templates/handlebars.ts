import { loadViewWithRuntime } from './registry-runtime';
import type { TemplateRenderer } from './template-renderer';

interface HandlebarsRuntime {
  template(spec: unknown, partials?: unknown): (model: unknown) => string;
}

/**
 * `oc-template-handlebars` (OC's legacy components): the compiled view is a Handlebars template
 * spec run by the Handlebars runtime: the page's own `Handlebars` when it has one, else the one
 * the component's registry serves (`/oc-client/vendor/handlebars.js`; no CDN, pages may be on a
 * closed network).
 */
export const handlebars: TemplateRenderer = {
  externals: [],
  loadView: (template) => loadViewWithRuntime(template, { global: 'Handlebars', file: 'handlebars.js' }),
  render(view, props) {
    const runtime = (window as unknown as { Handlebars?: HandlebarsRuntime }).Handlebars;
    if (!runtime) throw new Error('the Handlebars runtime is not loaded');
    return runtime.template(view, [])(props);
  },
};
