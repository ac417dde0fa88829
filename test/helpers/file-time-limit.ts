/**
 * Loaded before every test file (`--require` in `npm test`). Node's runner gives a test file's
 * process no time limit of its own: a request that never ends, and a registry whose close waits on
 * it, would hold the whole suite until CI gives up. A file still running after FILE_LIMIT_MS fails,
 * naming what kept it alive.
 */
const FILE_LIMIT_MS = 180_000;

// The runner's own process loads this too; only the files' processes are limited.
if (process.env.NODE_TEST_CONTEXT !== undefined) {
  setTimeout(() => {
    process.stderr.write(`The test file ran past ${FILE_LIMIT_MS / 1000} s and was stopped; still active: ${process.getActiveResourcesInfo().join(', ')}\n`);
    process.exit(1);
  }, FILE_LIMIT_MS).unref();
}
