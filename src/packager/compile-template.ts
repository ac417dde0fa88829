import { TesseraError } from '../errors/errors';
import { compileEs6 } from '../templates/es6/compile';
import { compileEsm } from '../templates/esm/compile';
import { compileHandlebars } from '../templates/handlebars/compile';
import { compileReact } from '../templates/react/compile';
import type { CompiledTemplate, TemplateCompiler } from '../templates/template-compiler';
import { TEMPLATE_TYPE_NAMES } from '../templates/template-types';

/** How each type of `TEMPLATE_TYPES` compiles; the runtime never loads this table. */
const COMPILERS: Record<string, TemplateCompiler> = {
  'oc-template-es6': compileEs6,
  'oc-template-esm': compileEsm,
  'oc-template-react': compileReact,
  'oc-template-handlebars': compileHandlebars,
};

/** Compiles a component's view with its template type's compiler. */
export async function compileTemplate(componentDir: string, src: string, type: string, minify: boolean): Promise<CompiledTemplate> {
  const compile = COMPILERS[type];
  if (!compile) {
    throw new TesseraError('TEMPLATE_NOT_SUPPORTED', `Template type "${type}" is not supported; use one of: ${TEMPLATE_TYPE_NAMES.join(', ')}.`);
  }
  return compile({ componentDir, src, minify });
}
