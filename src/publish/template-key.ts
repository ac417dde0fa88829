import { contentHash } from '../descriptor/content-hash';
import { SERVER_TEMPLATE } from '../templates/template-types';
import { unwrapTemplate } from '../templates/template-wrapper';

/**
 * Checks that `template.js` is the compiled view its descriptor announces: the packager hashes the
 * view bundle, then wraps it so that it registers itself under that key (see `wrapTemplate`).
 * Answers the problem, or undefined when the key holds.
 */
export function templateKeyProblem(template: Buffer, hashKey: string): string | undefined {
  const view = unwrapTemplate(template.toString('utf8'), hashKey);
  if (view === undefined) return `template.js does not register a compiled view under /oc/files/template/hashKey "${hashKey}"`;
  const actual = contentHash(view);
  if (actual !== hashKey) return `template.js holds a view whose sha1 is ${actual}, not /oc/files/template/hashKey "${hashKey}"`;
  return undefined;
}

/** Checks that `template.server.js` registers itself under the same key as `template.js`, where the sandbox looks for it. */
export function serverTemplateKeyProblem(serverTemplate: Buffer, hashKey: string): string | undefined {
  if (unwrapTemplate(serverTemplate.toString('utf8'), hashKey) !== undefined) return undefined;
  return `${SERVER_TEMPLATE} does not register a server view under /oc/files/template/hashKey "${hashKey}"`;
}
