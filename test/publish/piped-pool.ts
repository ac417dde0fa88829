import { execFileSync } from 'node:child_process';
import { mkdtemp, open, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { defaultConfig } from '../../src/config/config';
import { PublishPool } from '../../src/publish/publish-pool';
import { serverScriptBounds } from '../../src/publish/server-script-bounds';

interface Teardown {
  teardown(fn: () => unknown): void;
}

/**
 * The process's publish pool with one thread, run in the test's process as in a registry's main
 * thread, and a named pipe nobody writes to until the test says: a publish reading it waits there,
 * spending no CPU, as long as the test decides. Closed and removed when the test ends.
 */
export async function pipedPool(t: Teardown, checkSeconds: number, niceness = defaultConfig().limits.publishThreadNiceness): Promise<{ pool: PublishPool; folder: string; pipe: string }> {
  const folder = await mkdtemp(path.join(os.tmpdir(), 'tessera-publish-pool-'));
  const limits = defaultConfig().limits;
  const pool = new PublishPool({
    threads: 1,
    checkSeconds,
    niceness,
    storage: { location: path.join(folder, 'storage') },
    rules: { maxBytes: limits.publishBytes, dependencyPolicy: defaultConfig().dependencyPolicy, serverScript: serverScriptBounds(limits), defaultTenant: 'default' },
    weightOf: () => 1,
    // None is expected here: told on standard error, where a failing test's output shows it.
    onThreadLost: (error) => process.stderr.write(`publish thread lost: ${error.message}\n`),
  });
  const pipe = path.join(folder, 'upload.tgz');
  execFileSync('mkfifo', [pipe]);
  t.teardown(async () => {
    await pool.close();
    // A thread ended while opening the pipe leaves that open waiting for a writer; opened for reading
    // and writing, the pipe never waits itself (Linux), and ends that open.
    await (await open(pipe, 'r+')).close();
    await rm(folder, { recursive: true, force: true });
  });
  return { pool, folder, pipe };
}
