import type { TemplateTypeInfo } from '../template-type-info';

/** `oc-template-es6`: a function from the view model to an HTML string, the same file on the server and in the browser. */
export const es6: TemplateTypeInfo = { type: 'oc-template-es6', version: '1.0.0', serverTemplate: 'template.js' };
