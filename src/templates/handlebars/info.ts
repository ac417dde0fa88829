import type { TemplateTypeInfo } from '../template-types';

/** `oc-template-handlebars`: OC's legacy views, precompiled at package time; `template.js` holds the precompiled spec as OC's clients expect it. */
export const handlebars: TemplateTypeInfo = { type: 'oc-template-handlebars', version: '4.7.10', serverTemplate: 'template.server.js' };
