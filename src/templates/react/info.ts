import type { TemplateTypeInfo } from '../template-types';

/** `oc-template-react`: a React function component rendered with `react-dom/server` in the sandbox and hydrated with `hydrateRoot`. */
export const react: TemplateTypeInfo = { type: 'oc-template-react', version: '19.3.1', serverTemplate: 'template.server.js' };
