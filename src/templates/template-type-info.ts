/**
 * What the runtime (catalog, pipeline, publish route) knows of a template type. How a type compiles
 * lives beside it on the packager's floor (`compile.ts` in the type's folder), so that the runtime
 * never loads a compiler.
 */
export interface TemplateTypeInfo {
  type: string;
  /** The version `ctx.templates` reports, as OC's registry does for each template it renders. */
  version: string;
  /**
   * The package file the sandbox evaluates to render on the server: it registers
   * `oc.components[key] = (props) => html`. `template.js` when the browser's view is that same
   * function, `template.server.js` when the browser loads something else (a hydrating bundle, a
   * handlebars spec).
   */
  serverTemplate: 'template.js' | 'template.server.js';
}
