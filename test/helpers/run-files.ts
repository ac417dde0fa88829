import { closeSync, openSync, writeSync } from 'node:fs';
import path from 'node:path';
import tap from 'tap';
// Loaded under tap's root, before any file: its exit at the end of the process is the root's.
import './start-registry';
import { changesSince, processState, restore } from './process-left-as-found';
import { FILE_TAP_LIMIT_S } from './test-time-limits';
import { setTheFilesTest } from './the-files-test';

/**
 * Runs test files in this process, one after the other: `npm test` runs the suite as parts of this
 * kind (`scripts/write-test-parts.js`). A file alone in a process of its own paid about a CPU-second
 * before its first test (Node, tap and the registry's modules loaded, compiled and warmed again), a
 * third of the suite's CPU on a 2-CPU machine; in a part, only the first file does.
 *
 * The parts share one list of files and take them from it as they go: a part that ends a file
 * claims the next one that no part has claimed yet (a claim is a file created in `claims`, which
 * only one process can create), so that no part idles while another still has a share to run.
 * Each claim ends holding its file's name and how long it ran (`scripts/record-file-seconds.js`).
 * A file that leaves its process changed for the next (`process-left-as-found.ts`) fails a test of
 * its own, and the process is put back as it was.
 *
 * Each file's tests run inside one test of tap's root named by the file, as they would at the root
 * of a process of their own: the file imports tap's root (`import t from 'tap'`), and while it loads
 * that import answers the file's own test instead, so its tests, its `t.teardown` (run when the file's
 * tests end) and its `t.jobs` are the file's. Each file keeps tap's time limit of a file alone.
 * A helper that needs the file's test, not tap's root, asks `theFilesTest()` (`the-files-test.ts`).
 */
const TAP_MODULE = require.resolve('tap');

/**
 * `files`: paths under the compiled tests' folder (`core/unknown-route.test.js`), or absolute;
 * `claims`: the folder the parts that share them claim them in.
 */
export function runFiles(files: readonly string[], claims: string): void {
  const testRoot = path.join(__dirname, '..');
  let next = 0;
  const runNext = (): void => {
    for (; next < files.length; next++) {
      const claim = claimed(claims, next);
      if (claim === undefined) continue;
      const file = files[next++]!;
      const started = performance.now();
      const before = processState();
      // A promise: tap ends the file's test once it settled and the tests the file queued have ended.
      void tap
        .test(file, { timeout: FILE_TAP_LIMIT_S * 1000 }, async (t) => {
          setTheFilesTest(t);
          const tapModule = require.cache[TAP_MODULE]!;
          tapModule.exports = t;
          try {
            require(path.resolve(testRoot, file));
          } finally {
            tapModule.exports = tap;
          }
        })
        .then(() => {
          writeSync(claim, JSON.stringify({ file, seconds: Math.round(performance.now() - started) / 1000 }));
          closeSync(claim);
          const changes = changesSince(before);
          if (changes.length === 0) return;
          restore(before);
          return tap.test(`${file} leaves its process as it found it`, async (t) => void t.same(changes, [], 'nothing the files after it would find changed'));
        })
        // Within the same turn: tap's root ends itself only after idling for several timers.
        .then(runNext);
      return;
    }
  };
  runNext();
}

/** The descriptor of the claim on the file at `index`, or undefined when another part holds it. */
function claimed(claims: string, index: number): number | undefined {
  try {
    return openSync(path.join(claims, String(index)), 'wx');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') return undefined;
    throw error;
  }
}
