/**
 * How long a test file may run: tap ends one whose tests together pass FILE_TAP_LIMIT_S (a file of
 * several registries' tests takes minutes on a machine whose CPUs are busy with other work), and a
 * process still running FILE_LIMIT_MS after that fails, naming what kept it alive
 * (`file-time-limit.ts`). A part of the suite (several files in one process, `run-files.ts`) gives
 * each of its files the same, and its process PART_LIMIT_MS.
 */
export const FILE_TAP_LIMIT_S = 150;
export const FILE_LIMIT_MS = 180_000;
export const PART_LIMIT_MS = 30 * 60_000;

/** The entry of a process that runs a part of the suite (`scripts/write-test-parts.js` writes them). */
export const isPartEntry = (entry: string | undefined): boolean => entry !== undefined && /[\\/]test-parts[\\/]/.test(entry);
