import { contentHash } from '../descriptor/content-hash';
import { wrapTemplate } from './template-wrapper';

/** A view to compile, as the descriptor names it. */
export interface TemplateSource {
  componentDir: string;
  /** `oc.files.template.src`, relative to the component. */
  src: string;
  minify: boolean;
}

export interface CompiledTemplate {
  /** `template.js`: what the browser loads, registered under `key`. */
  code: string;
  /** The sha1 of the view bundle inside `template.js` (`oc.files.template.hashKey`). */
  key: string;
  /** `template.server.js`, registered under the same key, for a type whose server render is other code than the browser's. */
  serverCode?: string;
}

/** How a template type compiles at package time (one per folder of `src/templates/`). */
export type TemplateCompiler = (source: TemplateSource) => Promise<CompiledTemplate>;

/** `template.js` of a view bundle: its hash is the key it registers under. */
export function browserTemplate(view: string): { code: string; key: string } {
  const key = contentHash(view);
  return { code: wrapTemplate(view, key), key };
}

/** The constants a server template's hydration unit carries (see hydration-unit.js). */
export const hydrationDefines = (type: string, key: string): Record<string, string> => ({
  __TESSERA_TEMPLATE_TYPE__: JSON.stringify(type),
  __TESSERA_TEMPLATE_KEY__: JSON.stringify(key),
});
