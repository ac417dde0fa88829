import path from 'node:path';
import tap from 'tap';
// Loaded under tap's root, before any file: its exit at the end of the process is the root's.
import './start-registry';
import { FILE_TAP_LIMIT_S } from './test-time-limits';
import { setTheFilesTest } from './the-files-test';

/**
 * Runs several test files in this process, one after the other: `npm test` runs the suite as parts
 * of this kind (`scripts/write-test-parts.js`). A file alone in a process of its own paid about a
 * CPU-second before its first test (Node, tap and the registry's modules loaded, compiled and warmed
 * again), a third of the suite's CPU on a 2-CPU machine; in a part, only the first file does.
 *
 * Each file's tests run inside one test of tap's root named by the file, as they would at the root
 * of a process of their own: the file imports tap's root (`import t from 'tap'`), and while it loads
 * that import answers the file's own test instead, so its tests, its `t.teardown` (run when the file's
 * tests end) and its `t.jobs` are the file's. Each file keeps tap's time limit of a file alone.
 * A helper that needs the file's test, not tap's root, asks `theFilesTest()` (`the-files-test.ts`).
 */
const TAP_MODULE = require.resolve('tap');

/** `files`: paths under the compiled tests' folder (`core/unknown-route.test.js`). */
export function runFiles(files: readonly string[]): void {
  const testRoot = path.join(__dirname, '..');
  for (const file of files) {
    // A promise: tap ends the file's test once it settled and the tests the file queued have ended.
    tap.test(file, { timeout: FILE_TAP_LIMIT_S * 1000 }, async (t) => {
      setTheFilesTest(t);
      const tapModule = require.cache[TAP_MODULE]!;
      tapModule.exports = t;
      try {
        require(path.join(testRoot, file));
      } finally {
        tapModule.exports = tap;
      }
    });
  }
}
