import type { Oc } from './oc-global';

/** Values that would change the query or break out of the attribute; others stay as written, as OC's client leaves them. */
const NEEDS_ENCODING = /[+&="<>]/;

/** `oc.build({baseUrl, name, version?, parameters?})`: the markup of a component element, ready to insert. */
export function createBuild(tag: string): Oc['build'] {
  return (options) => {
    if (!options.baseUrl) throw new Error('baseUrl parameter is required');
    if (!options.name) throw new Error('name parameter is required');
    let href = withSlash(options.baseUrl) + withSlash(options.name) + withSlash(options.version);
    const pairs = Object.entries(options.parameters ?? {}).map(([key, value]) => `${encodeIfNeeded(key)}=${encodeIfNeeded(String(value))}`);
    if (pairs.length > 0) href += `?${pairs.join('&')}`;
    return `<${tag} href="${href}"></${tag}>`;
  };
}

const withSlash = (segment: string | undefined): string => (!segment ? '' : segment.endsWith('/') ? segment : `${segment}/`);
const encodeIfNeeded = (value: string): string => (NEEDS_ENCODING.test(value) ? encodeURIComponent(value) : value);
