import { mountView } from './mounting-view';
import { loadViewWithRuntime } from './registry-runtime';
import type { TemplateRenderer } from './template-renderer';

/**
 * `oc-template-react`: React comes from the component's registry (`/oc-client/vendor/react.js`,
 * once per page for every React component), then `template.js`, which registers a view that
 * renders with `createRoot`, or hydrates server markup with `hydrateRoot` (see ../hydrate.ts).
 */
export const react: TemplateRenderer = {
  externals: [],
  loadView: (template) => loadViewWithRuntime(template, { global: 'TesseraReact', file: 'react.js' }),
  render: mountView,
};
