import tap, { type Test } from 'tap';

let current: Test | undefined;

/**
 * The test that holds the tests of the file being run: tap's root when the file runs in a process of
 * its own, that file's own test when it runs in a part of the suite (`run-files.ts`).
 */
export const theFilesTest = (): Test => current ?? tap;

/** Set by `run-files.ts` as each file of a part starts. */
export function setTheFilesTest(t: Test): void {
  current = t;
}
