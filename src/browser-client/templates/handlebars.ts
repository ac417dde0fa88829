import type { TemplateRenderer } from './template-renderer';

interface HandlebarsRuntime {
  template(spec: unknown, partials?: unknown): (model: unknown) => string;
}

/**
 * `oc-template-handlebars` (OC's legacy components): the compiled view is a Handlebars template
 * spec run by the Handlebars runtime, which the page provides or which is loaded from the URL OC's
 * client uses (a page on a closed network loads its own copy first, or sets `oc.conf.templates`).
 */
export const handlebars: TemplateRenderer = {
  externals: [{ global: 'Handlebars', url: 'https://cdnjs.cloudflare.com/ajax/libs/handlebars.js/4.7.7/handlebars.runtime.min.js' }],
  render(view, props) {
    const runtime = (window as unknown as { Handlebars?: HandlebarsRuntime }).Handlebars;
    if (!runtime) throw new Error('the Handlebars runtime is not loaded');
    return runtime.template(view, [])(props);
  },
};
