import { spawnSync } from 'node:child_process';

/**
 * Imported first by the test files that load isolated-vm into their own process (the packager's:
 * it reads a server entry's definition in an isolate). isolated-vm needs Node started with
 * --no-node-snapshot, which `npm test` leaves out of the test files' processes (each starts in
 * about 50 ms less CPU with the snapshot): without it, the file runs again in a child started with
 * it, on the same output, and this process ends with the child's code.
 */
if (!process.execArgv.includes('--no-node-snapshot')) {
  const child = spawnSync(process.execPath, ['--no-node-snapshot', ...process.execArgv, ...process.argv.slice(1)], { stdio: 'inherit' });
  process.exit(child.status ?? 1);
}
