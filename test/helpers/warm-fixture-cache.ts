/**
 * Run by `npm test` before the suite: packages every fixture and demo component into the per-build
 * cache of packaged-fixture.ts, in one child process, so that test files find their packages there
 * and none loads the packager (esbuild's service, an isolated-vm isolate) unless it tests it. A test
 * process holding isolated-vm's threads has been seen stuck in native code at its end, past its time
 * limit: the child that packages is never left to end by itself, it is killed once it has answered.
 * A folder that does not package (the broken fixtures) is left to the test that expects it.
 */
import { fork } from 'node:child_process';
import { readdir } from 'node:fs/promises';
import path from 'node:path';
import { packagedFixture } from './packaged-fixture';

const REPO_ROOT = path.join(__dirname, '..', '..', '..');
const FOLDERS = [path.join(REPO_ROOT, 'test', 'fixtures'), path.join(REPO_ROOT, 'demo', 'components')];
/**
 * Packagings at once: esbuild and the isolates use other threads, and two fixtures spin at load for
 * 1.7 s and 0.6 s (packaging runs a server entry's top-level code): four keep 2 CPUs busy meanwhile.
 */
const AT_ONCE = 4;
/** Far beyond the few seconds it takes; past it the tests package what they need themselves. */
const LIMIT_MS = 120_000;
/** The argument that makes this file the child that packages. */
const CHILD = '--package-fixtures';

/** The child: packages every folder, answers how many packaged. */
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

/** The parent: loads neither the packager nor isolated-vm, so its own end is an ordinary one. */
function runChild(): void {
  const child = fork(__filename, [CHILD], { execArgv: ['--no-node-snapshot'], stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
  const timer = setTimeout(() => child.kill('SIGKILL'), LIMIT_MS);
  let answered = false;
  child.once('message', (packaged: number) => {
    answered = true;
    process.stdout.write(`${packaged} fixture packages ready\n`);
    child.kill('SIGKILL');
  });
  child.once('exit', () => {
    clearTimeout(timer);
    if (!answered) process.stdout.write('fixture packages not prepared: each test file packages what it needs\n');
  });
}

if (process.argv.includes(CHILD)) {
  void packageAll().then(
    (packaged) => process.send!(packaged),
    () => process.send!(0),
  );
} else {
  runChild();
}
