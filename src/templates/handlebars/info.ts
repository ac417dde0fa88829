import { version } from 'handlebars/package.json';
import type { TemplateTypeInfo } from '../template-type-info';

/** `oc-template-handlebars`: OC's legacy views, precompiled at package time; `template.js` holds the precompiled spec as OC's clients expect it. Its version is the handlebars runtime's. */
export const handlebars: TemplateTypeInfo = { type: 'oc-template-handlebars', version, serverTemplate: 'template.server.js' };
