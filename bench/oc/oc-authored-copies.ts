import { cp, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { REPO_ROOT } from '../bench-storage';

/** OC's twin of the demo greeting (OC's own `oc init` es6 greeting, with the demo's parameter and markup). */
export const OC_HELLO_WORLD = path.join(REPO_ROOT, 'bench', 'oc-components', 'hello-world');

/** The OC-authored greeting at the versions a page's teams pinned: one component, several versions. */
export const OC_GREETING = 'oc-greeting';
export const OC_GREETING_VERSIONS = ['1.0.0', '1.0.1', '1.1.0', '2.0.0'];
/** Five components, each its own name, of the same OC-authored greeting. */
export const OC_GREETINGS = ['oc-greeting-a', 'oc-greeting-b', 'oc-greeting-c', 'oc-greeting-d', 'oc-greeting-e'];

/**
 * Copies of the OC-authored greeting, as folders both registries package (Tessera with its own
 * packager, OC with OC's CLI): `oc-greeting` at each of OC_GREETING_VERSIONS, and the five
 * OC_GREETINGS at 1.0.0. Answers the folders.
 */
export async function ocAuthoredCopies(folder: string): Promise<string[]> {
  const descriptor = JSON.parse(await readFile(path.join(OC_HELLO_WORLD, 'package.json'), 'utf8')) as Record<string, unknown>;
  const wanted = [...OC_GREETING_VERSIONS.map((version) => ({ name: OC_GREETING, version })), ...OC_GREETINGS.map((name) => ({ name, version: '1.0.0' }))];
  const copies: string[] = [];
  for (const { name, version } of wanted) {
    const copy = path.join(folder, `${name}@${version}`);
    await cp(OC_HELLO_WORLD, copy, { recursive: true });
    await writeFile(path.join(copy, 'package.json'), JSON.stringify({ ...descriptor, name, version }, null, 2));
    copies.push(copy);
  }
  return copies;
}
