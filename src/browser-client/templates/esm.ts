import { mountView } from './mounting-view';
import type { TemplateRenderer } from './template-renderer';

/**
 * `oc-template-esm`: `template.js` registers a view that renders itself with the Preact bundled in
 * it (or, for OC's createComponent form, mounts itself). Server-rendered markup is hydrated
 * through `oc.hydrate` (see ../hydrate.ts).
 */
export const esm: TemplateRenderer = {
  externals: [],
  render: mountView,
};
