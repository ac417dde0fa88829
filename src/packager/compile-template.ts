import path from 'node:path';
import { build } from 'esbuild';
import { TesseraError } from '../errors/errors';
import { contentHash } from '../descriptor/content-hash';
import { registerView } from '../templates/es6/registered-view';
import { isSupportedTemplateType, SUPPORTED_TEMPLATE_TYPES } from '../templates/template-types';

export interface CompiledTemplate {
  /** `template.js`: registers the view under `oc.components[key]`, as OC's browser client expects. */
  code: string;
  key: string;
}

/**
 * Compiles an `oc-template-es6` view: a module whose default export maps the view model to an HTML
 * string. The same file renders on the server (inside the sandbox) and in the browser.
 */
export async function compileTemplate(componentDir: string, src: string, type: string, minify: boolean): Promise<CompiledTemplate> {
  if (!isSupportedTemplateType(type)) {
    throw new TesseraError('TEMPLATE_NOT_SUPPORTED', `Template type "${type}" is not supported; use one of: ${SUPPORTED_TEMPLATE_TYPES.join(', ')}.`);
  }
  const result = await build({
    entryPoints: [path.join(componentDir, src)],
    absWorkingDir: componentDir,
    bundle: true,
    write: false,
    format: 'iife',
    globalName: '__view',
    platform: 'neutral',
    mainFields: ['browser', 'module', 'main'],
    target: 'es2020',
    minify,
    legalComments: 'none',
    logLevel: 'silent',
  }).catch((error: unknown) => {
    throw new TesseraError('PACKAGE_NOT_VALID', `The template "${src}" does not compile.`, { details: { problems: buildProblems(error) } });
  });
  const view = result.outputFiles[0]!.text;
  const key = contentHash(view);
  return { code: registerView(view, key), key };
}

/** esbuild's failures as one sentence each, without host paths. */
export function buildProblems(error: unknown): string[] {
  const errors = (error as { errors?: Array<{ text: string; location?: { file: string; line: number } | null }> }).errors;
  if (!errors) return [String((error as Error).message ?? error)];
  return errors.map((e) => (e.location ? `${e.location.file}:${e.location.line}: ${e.text}` : e.text));
}
