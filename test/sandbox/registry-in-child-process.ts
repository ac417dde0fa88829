/**
 * Runs a registry in a process of its own, for tests whose hostile component leaves the process
 * unable to exit normally (an isolate V8 lost control of keeps a parked thread). Started by
 * `startChildRegistry` (child-registry.ts), which reads the first stdout line: its URL and storage.
 *
 * argv: the component folders to publish. Limits as in the other sandbox tests; the environment
 * may set TESSERA_TEST_WORKERS and TESSERA_TEST_TIMEOUT_MS.
 */
import { startRegistry } from '../helpers/start-registry';

const teardowns: Array<() => unknown> = [];
startRegistry({ teardown: (fn) => teardowns.push(fn) }, process.argv.slice(2), (config) => {
  config.limits.memoryMb = 32;
  config.limits.executionTimeoutMs = Number(process.env.TESSERA_TEST_TIMEOUT_MS ?? 5000);
  config.limits.workers = Number(process.env.TESSERA_TEST_WORKERS ?? config.limits.workers);
}).then(
  ({ url, storagePath }) => process.stdout.write(`${JSON.stringify({ url, storagePath })}\n`),
  (error: unknown) => {
    process.stderr.write(`${String(error)}\n`);
    process.exitCode = 1;
  },
);
