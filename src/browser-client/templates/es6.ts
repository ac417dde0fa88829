import { callView, type TemplateRenderer } from './template-renderer';

/**
 * `oc-template-es6`: `template.js` registers `oc.components[key] = function (props) { return html }`
 * (the wrapper the registry checks at publish), so rendering is one call.
 */
export const es6: TemplateRenderer = {
  externals: [],
  render: callView,
};
