import { contentHash } from '../packager/hash';

/**
 * Checks that `template.js` is the compiled view its descriptor announces. The packager
 * (src/packager/compile-template.ts) hashes the view bundle, then wraps it so that it registers
 * itself under that key: `…oc.components["<key>"]=(function(){<view>;return …})();`. So the
 * registry cuts that wrapper off and hashes what is inside; the wrapper must match to the byte.
 * Answers the problem, or undefined when the key holds.
 */
export function templateKeyProblem(template: Buffer, hashKey: string): string | undefined {
  const code = template.toString('utf8');
  const prefix = `var oc=oc||{};oc.components=oc.components||{};oc.components[${JSON.stringify(hashKey)}]=(function(){`;
  const suffix = ';return __view.default||__view;})();\n';
  if (!code.startsWith(prefix) || !code.endsWith(suffix) || code.length < prefix.length + suffix.length) {
    return `template.js does not register a compiled view under /oc/files/template/hashKey "${hashKey}"`;
  }
  const actual = contentHash(code.slice(prefix.length, code.length - suffix.length));
  if (actual !== hashKey) return `template.js holds a view whose sha1 is ${actual}, not /oc/files/template/hashKey "${hashKey}"`;
  return undefined;
}
