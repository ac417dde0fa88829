/**
 * `template.js` (and `template.server.js`) register a compiled view under its key, as OC's clients
 * expect: `oc.components[key]` is what the view bundle's default export is (a function of the
 * model for es6, the handlebars spec, the mount/hydrate object of esm and react). The packager
 * wraps, the publish route unwraps to check the key; neither side needs the compilers.
 */
const wrapperStart = (key: string): string => `var oc=oc||{};oc.components=oc.components||{};oc.components[${JSON.stringify(key)}]=(function(){`;
const WRAPPER_END = ';return __view.default||__view;})();\n';

/** Wraps a view bundle (a script defining `__view`) so that it registers itself under `key`. */
export function wrapTemplate(view: string, key: string): string {
  return wrapperStart(key) + view + WRAPPER_END;
}

/** The view bundle inside a template registered under `key`, or undefined when it is not wrapped that way. */
export function unwrapTemplate(code: string, key: string): string | undefined {
  const start = wrapperStart(key);
  if (!code.startsWith(start) || !code.endsWith(WRAPPER_END) || code.length < start.length + WRAPPER_END.length) return undefined;
  return code.slice(start.length, code.length - WRAPPER_END.length);
}
