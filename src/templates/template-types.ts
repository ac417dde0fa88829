import { es6 } from './es6/info';
import { esm } from './esm/info';
import { handlebars } from './handlebars/info';
import { react } from './react/info';

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
  serverTemplate: 'template.js' | typeof SERVER_TEMPLATE;
}

/** The package file of a server template that is not `template.js`. */
export const SERVER_TEMPLATE = 'template.server.js';

/** Every template type this registry renders, one folder each under `src/templates/`. */
export const TEMPLATE_TYPES: readonly TemplateTypeInfo[] = [es6, esm, react, handlebars];

export const TEMPLATE_TYPE_NAMES: readonly string[] = TEMPLATE_TYPES.map((info) => info.type);

/** The type a descriptor names, under its current name: OC's older components say `handlebars`. */
export const currentTypeName = (type: string): string => (type === 'handlebars' ? 'oc-template-handlebars' : type);

export function templateTypeInfo(type: string): TemplateTypeInfo | undefined {
  return TEMPLATE_TYPES.find((info) => info.type === type);
}
