import { callView, type TemplateRenderer } from './template-renderer';

/** `oc-template-jade` (OC's legacy components): the view is a function that needs the `jade` runtime global. */
export const jade: TemplateRenderer = {
  externals: [{ global: 'jade', url: 'https://cdnjs.cloudflare.com/ajax/libs/jade/1.11.0/runtime.min.js' }],
  render: callView,
};
