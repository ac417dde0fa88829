import { es6 } from './es6/info';
import { esm } from './esm/info';
import { handlebars } from './handlebars/info';
import { react } from './react/info';
import type { TemplateTypeInfo } from './template-type-info';

/** The package file of a server template that is not `template.js`. */
export const SERVER_TEMPLATE = 'template.server.js' satisfies TemplateTypeInfo['serverTemplate'];

/** Every template type this registry renders, one folder each under `src/templates/`. */
export const TEMPLATE_TYPES: readonly TemplateTypeInfo[] = [es6, esm, react, handlebars];

export const TEMPLATE_TYPE_NAMES: readonly string[] = TEMPLATE_TYPES.map((info) => info.type);

/** The type a descriptor names, under its current name: OC's older components say `handlebars`. */
export const currentTypeName = (type: string): string => (type === 'handlebars' ? 'oc-template-handlebars' : type);

export function templateTypeInfo(type: string): TemplateTypeInfo | undefined {
  return TEMPLATE_TYPES.find((info) => info.type === type);
}
