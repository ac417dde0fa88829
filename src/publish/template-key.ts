import { contentHash } from '../descriptor/content-hash';
import { unwrapTemplate } from '../templates/es6/registered-view';

/**
 * Checks that `template.js` is the compiled view its descriptor announces: the packager hashes the
 * view bundle, then wraps it so that it registers itself under that key (see `unwrapTemplate`).
 * Answers the problem, or undefined when the key holds.
 */
export function templateKeyProblem(template: Buffer, hashKey: string): string | undefined {
  const view = unwrapTemplate(template.toString('utf8'), hashKey);
  if (view === undefined) return `template.js does not register a compiled view under /oc/files/template/hashKey "${hashKey}"`;
  const actual = contentHash(view);
  if (actual !== hashKey) return `template.js holds a view whose sha1 is ${actual}, not /oc/files/template/hashKey "${hashKey}"`;
  return undefined;
}
