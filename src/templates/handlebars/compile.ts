import { readFile } from 'node:fs/promises';
import path from 'node:path';
import Handlebars from 'handlebars';
import { TesseraError } from '../../errors/errors';
import { bundleView, templateFile } from '../bundle-view';
import { browserTemplate, type TemplateCompiler } from '../template-compiler';
import { wrapTemplate } from '../template-wrapper';

/**
 * OC's legacy handlebars view, precompiled: `template.js` registers the precompiled spec, as OC's
 * clients expect, and `template.server.js` runs it with the handlebars runtime in the sandbox.
 */
export const compileHandlebars: TemplateCompiler = async ({ componentDir, src, minify }) => {
  const source = await readFile(path.join(componentDir, src), 'utf8').catch(() => {
    throw new TesseraError('PACKAGE_NOT_VALID', `The template "${src}" cannot be read.`, { details: { problems: [`${src} cannot be read`] } });
  });
  let spec: string;
  try {
    // The typings say a spec object; precompile answers its JavaScript source.
    spec = String(Handlebars.precompile(source));
  } catch (error) {
    const problem = `${src}: ${(error as Error).message.split('\n')[0]}`;
    throw new TesseraError('PACKAGE_NOT_VALID', `The template "${src}" does not compile.`, { details: { problems: [problem] } });
  }
  const template = browserTemplate(`var __view=${spec};`);
  const server = await bundleView({
    componentDir,
    entry: templateFile('handlebars', 'server-entry.js'),
    view: { contents: `export default ${spec};` },
    src,
    minify,
    target: 'sandbox',
  });
  return { ...template, serverCode: wrapTemplate(server.code, template.key) };
};
