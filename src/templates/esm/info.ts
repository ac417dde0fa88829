import type { TemplateTypeInfo } from '../template-type-info';

/** `oc-template-esm`: a Preact function component rendered to HTML on the server and hydrated in the browser, or OC's `createComponent` form mounted in the browser. */
export const esm: TemplateTypeInfo = { type: 'oc-template-esm', version: '1.0.0', serverTemplate: 'template.server.js' };
