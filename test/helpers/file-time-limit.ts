import { spawn } from 'node:child_process';
import { writeSync } from 'node:fs';
import { isMainThread } from 'node:worker_threads';
import { FILE_LIMIT_MS, FILE_TAP_LIMIT_S, isPartEntry, PART_LIMIT_MS } from './test-time-limits';

/**
 * Loaded before every test file (`--require` in `npm test`). Node's runner gives a test file's
 * process no time limit of its own: a request that never ends, and a registry whose close waits on
 * it, would hold the whole suite until CI gives up. A file still running after FILE_LIMIT_MS fails,
 * naming what kept it alive; a part of the suite (several files, `run-files.ts`), after PART_LIMIT_MS.
 * A process whose main thread is stuck in native code (seen once at exit, in isolated-vm's thread
 * pool) runs no timer at all: a shell outside it kills it a minute later.
 */
const part = isPartEntry(process.argv[1]);
const LIMIT_MS = part ? PART_LIMIT_MS : FILE_LIMIT_MS;
const KILL_AFTER_S = LIMIT_MS / 1000 + 60;

// The runner's own process loads this too; only the files' processes are limited. A worker thread
// of theirs (a registry's front threads, its publish threads) loads it as well, with the process's
// flags: its limit would be a file's, and its watchdog would kill the whole process, as it once
// killed a part four minutes into its run.
if (process.env.NODE_TEST_CONTEXT !== undefined && isMainThread) {
  // tap ends a file whose tests together pass 30 s (its default, read when it loads, after this):
  // a file of several registries' tests does on a machine whose CPUs are busy with other work. This
  // limit is the one that counts; tap's comes just before it, so a stuck file names its test. In a
  // part, each file's test has tap's limit (`run-files.ts`), and tap's root none.
  process.env.TAP_TIMEOUT ??= part ? '0' : String(FILE_TAP_LIMIT_S);
  setTimeout(() => {
    // Straight to the file descriptor: tap holds what goes through process.stderr until its tests end.
    writeSync(2, `The test ${part ? 'part' : 'file'} ran past ${LIMIT_MS / 1000} s and was stopped; still active: ${process.getActiveResourcesInfo().join(', ')}\n`);
    process.exit(1);
  }, LIMIT_MS).unref();
  if (process.platform !== 'win32') {
    const pid = process.pid;
    // Polls every 5 s and ends with the test process; holds none of its pipes.
    const script = `i=0; while kill -0 ${pid} 2>/dev/null; do sleep 5; i=$((i+5)); if [ $i -ge ${KILL_AFTER_S} ]; then kill -9 ${pid}; exit 0; fi; done`;
    spawn('/bin/sh', ['-c', script], { detached: true, stdio: 'ignore' }).unref();
  }
}
