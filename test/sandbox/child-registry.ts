import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { rm } from 'node:fs/promises';
import path from 'node:path';

interface Teardown {
  teardown(fn: () => unknown): void;
}

/**
 * Starts a registry publishing `components` in a process of its own (registry-in-child-process.ts)
 * and answers its base URL. The teardown kills it with SIGKILL, since a parked isolate thread keeps
 * it from exiting normally, then removes its storage. `env` may set TESSERA_TEST_WORKERS and
 * TESSERA_TEST_TIMEOUT_MS.
 */
export async function startChildRegistry(t: Teardown, components: string[], env: Record<string, string> = {}): Promise<string> {
  const child = spawn(process.execPath, ['--no-node-snapshot', path.join(__dirname, 'registry-in-child-process.js'), ...components], {
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, ...env },
  });
  const exited = once(child, 'exit');
  const [line] = (await once(child.stdout, 'data')) as [Buffer];
  const { url, storagePath } = JSON.parse(line.toString('utf8').split('\n')[0]!) as { url: string; storagePath: string };
  t.teardown(async () => {
    child.kill('SIGKILL');
    await exited;
    await rm(storagePath, { recursive: true, force: true });
  });
  return url;
}
