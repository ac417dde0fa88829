import path from 'node:path';
import { bundleView } from '../bundle-view';
import { browserTemplate, type TemplateCompiler } from '../template-compiler';

/** The view module is the template: its default export maps the view model to an HTML string, on the server and in the browser. */
export const compileEs6: TemplateCompiler = async ({ componentDir, src, minify }) => {
  const view = await bundleView({ componentDir, entry: path.join(componentDir, src), src, minify, target: 'browser' });
  return browserTemplate(view.code);
};
