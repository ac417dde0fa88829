/**
 * Run by `npm test` before the suite: packages every fixture and demo component into the per-build
 * cache of packaged-fixture.ts, so that test files find their packages there and none starts the
 * packager's processes (esbuild's service, the reader of server entries) unless it tests them.
 * A folder that does not package (the broken fixtures) is left to the test that expects it.
 */
import { readdir } from 'node:fs/promises';
import path from 'node:path';
import { stopPackagerProcesses } from '../../src/packager/stop-packager-processes';
import { packagedFixture } from './packaged-fixture';

const REPO_ROOT = path.join(__dirname, '..', '..', '..');
const FOLDERS = [path.join(REPO_ROOT, 'test', 'fixtures'), path.join(REPO_ROOT, 'demo', 'components')];
/**
 * Packagings at once: esbuild and the reader of server entries are processes of their own, and two
 * fixtures spin at load for 1.7 s and 0.6 s (packaging runs a server entry's top-level code): four
 * keep 2 CPUs busy meanwhile.
 */
const AT_ONCE = 4;

/** Packages every folder; answers how many packaged. */
async function packageAll(): Promise<number> {
  const entries = await Promise.all(FOLDERS.map((folder) => readdir(folder, { withFileTypes: true })));
  const dirs = entries.flatMap((list, index) => list.filter((entry) => entry.isDirectory()).map((entry) => path.join(FOLDERS[index]!, entry.name)));
  let packaged = 0;
  const next = async (): Promise<void> => {
    for (let dir = dirs.shift(); dir !== undefined; dir = dirs.shift()) {
      try {
        await packagedFixture(dir);
        packaged++;
      } catch {
        // a broken fixture: its own test packages it, expecting the failure
      }
    }
  };
  await Promise.all(Array.from({ length: AT_ONCE }, next));
  return packaged;
}

/** Far beyond the few seconds it takes: past it, the suite goes on and each test file packages what it needs. */
const LIMIT_MS = 120_000;
setTimeout(() => {
  process.stdout.write(`fixture packages not prepared within ${LIMIT_MS / 1000} s: each test file packages what it needs\n`);
  process.exit(0);
}, LIMIT_MS).unref();

void packageAll()
  .then(
    (packaged) => process.stdout.write(`${packaged} fixture packages ready\n`),
    (error: Error) => process.stdout.write(`fixture packages not prepared (${error.message}): each test file packages what it needs\n`),
  )
  .finally(() => stopPackagerProcesses());
