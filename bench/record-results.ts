import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { REPO_ROOT } from './bench-storage';

const RESULTS_FILE = path.join(REPO_ROOT, 'bench', 'README.md');
const RESULTS_HEADING = '## Latest results';
const HISTORY_FILE = path.join(REPO_ROOT, 'bench', 'HISTORY.md');
const HISTORY_HEADING = '## Runs';

/** Index just past `heading`'s line in `text`; throws when the heading is missing. */
function after(text: string, heading: string, file: string): number {
  const at = text.indexOf(`\n${heading}\n`);
  if (at < 0) throw new Error(`${file} has no "${heading}" heading.`);
  return at + heading.length + 2;
}

/**
 * Puts a dated result section under the latest-results heading of bench/README.md, and moves the
 * section it replaces to the top of bench/HISTORY.md (newest first).
 */
export async function recordResults(section: string): Promise<void> {
  const readme = await readFile(RESULTS_FILE, 'utf8');
  const history = await readFile(HISTORY_FILE, 'utf8');
  const latestAt = after(readme, RESULTS_HEADING, 'bench/README.md');
  const previous = readme.slice(latestAt).trim();
  const historyAt = after(history, HISTORY_HEADING, 'bench/HISTORY.md');
  if (previous) await writeFile(HISTORY_FILE, `${history.slice(0, historyAt)}\n${previous}\n${history.slice(historyAt)}`);
  await writeFile(RESULTS_FILE, `${readme.slice(0, latestAt)}\n${section}`);
}
