import { version } from 'react-19/package.json';
import type { TemplateTypeInfo } from '../template-type-info';

/** `oc-template-react`: a React function component rendered with `react-dom/server` in the sandbox and hydrated with `hydrateRoot`; its version is React's. */
export const react: TemplateTypeInfo = { type: 'oc-template-react', version, serverTemplate: 'template.server.js' };
