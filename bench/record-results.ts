import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { REPO_ROOT } from './bench-storage';

const RESULTS_FILE = path.join(REPO_ROOT, 'bench', 'README.md');
const RESULTS_HEADING = '## Results';

/** Inserts a dated result section right under the results heading: newest first. */
export async function recordResults(section: string): Promise<void> {
  const readme = await readFile(RESULTS_FILE, 'utf8');
  const at = readme.indexOf(`\n${RESULTS_HEADING}\n`);
  if (at < 0) throw new Error(`bench/README.md has no "${RESULTS_HEADING}" heading.`);
  const insertAt = at + RESULTS_HEADING.length + 2;
  await writeFile(RESULTS_FILE, `${readme.slice(0, insertAt)}\n${section}${readme.slice(insertAt)}`);
}
