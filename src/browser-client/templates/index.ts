import { es6 } from './es6';
import { esm } from './esm';
import { handlebars } from './handlebars';
import { jade } from './jade';
import { react } from './react';
import type { TemplateRenderer } from './template-renderer';

/** Every template type this client renders, by type name. Adding a type: one module, one line here. */
export const RENDERERS: Readonly<Record<string, TemplateRenderer>> = {
  'oc-template-es6': es6,
  'oc-template-esm': esm,
  'oc-template-react': react,
  'oc-template-handlebars': handlebars,
  'oc-template-jade': jade,
};

/** OC's short names of its legacy types, still found in old `template.type` fields. */
export const normaliseTemplateType = (type: string): string => (type === 'jade' || type === 'handlebars' ? `oc-template-${type}` : type);
