/**
 * `template.js` of an `oc-template-es6` component: the view bundle wrapped so that it registers itself
 * under its key, as OC's browser client expects. The packager writes it; the publish route checks it.
 */
const wrapperStart = (key: string): string => `var oc=oc||{};oc.components=oc.components||{};oc.components[${JSON.stringify(key)}]=(function(){`;
const WRAPPER_END = ';return __view.default||__view;})();\n';

/** The `template.js` that registers `view` (an esbuild IIFE bundle named `__view`) under `key`. */
export const registerView = (view: string, key: string): string => wrapperStart(key) + view + WRAPPER_END;

/** The view bundle inside a `template.js` registered under `key`, or undefined when it is not wrapped that way. */
export function unwrapTemplate(code: string, key: string): string | undefined {
  const start = wrapperStart(key);
  if (!code.startsWith(start) || !code.endsWith(WRAPPER_END) || code.length < start.length + WRAPPER_END.length) return undefined;
  return code.slice(start.length, code.length - WRAPPER_END.length);
}
