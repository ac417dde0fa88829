import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { isRunning } from '../process-running';

const PREFIX = 'tessera-hosts-';

/**
 * A folder for the sockets of the sandbox hosts a registry starts, which only this user can open
 * (named after the registry's process id). Folders of registries whose process no longer runs (one
 * killed, which could not remove its own) are removed first.
 */
export function createSocketFolder(): string {
  const tmp = os.tmpdir();
  for (const entry of readdirSync(tmp)) {
    const pid = entry.startsWith(PREFIX) ? Number(/^(\d+)-/.exec(entry.slice(PREFIX.length))?.[1]) : 0;
    if (pid > 0 && !isRunning(pid)) rmSync(path.join(tmp, entry), { recursive: true, force: true });
  }
  return mkdtempSync(path.join(tmp, `${PREFIX}${process.pid}-`));
}
