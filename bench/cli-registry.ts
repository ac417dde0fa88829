import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { REPO_ROOT } from './bench-storage';

/** The `tessera` command, as an operator runs it. */
export const CLI = path.join(REPO_ROOT, 'bin', 'tessera.js');
export const START_LIMIT_MS = 60_000;
const STOP_GRACE_MS = 10_000;

export interface CliRegistry {
  url: string;
  /** The process spawned: the registry's own (bin/tessera.js starts itself again in it when flags are missing). */
  pid: number;
  stop(): Promise<void>;
}

/**
 * Spawns `tessera start <args>` on 127.0.0.1 with `nodeFlags` before the command (none: as an
 * operator types it), and answers once it logs its address.
 */
export async function startCliRegistry(args: string[], nodeFlags: readonly string[], env: NodeJS.ProcessEnv = {}): Promise<CliRegistry> {
  const child = spawn(process.execPath, [...nodeFlags, CLI, 'start', ...args], {
    env: { ...process.env, TESSERA_HOST: '127.0.0.1', ...env },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const stop = () => stopCli(child, exited);
  try {
    return { url: await announcedUrl(child), pid: child.pid!, stop };
  } catch (error) {
    await stop();
    throw error;
  }
}

/** The base URL the registry logs once it listens (its log goes to stdout, one JSON line each). */
function announcedUrl(child: ChildProcess): Promise<string> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`tessera start did not listen within ${START_LIMIT_MS / 1000} s.`)), START_LIMIT_MS);
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`tessera start exited with code ${code} before listening.`));
    });
    // Read to the end, so that a full pipe never stalls the registry.
    createInterface({ input: child.stdout! }).on('line', (line) => {
      const url = /Tessera registry on (http:\/\/\S+?),/.exec(line)?.[1];
      if (url === undefined) return;
      clearTimeout(timer);
      resolve(url);
    });
  });
}

/** SIGINT stops a registry at once (SIGTERM would drain); past the grace, SIGKILL. */
async function stopCli(child: ChildProcess, exited: Promise<void>): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  child.kill('SIGINT');
  const timer = setTimeout(() => child.kill('SIGKILL'), STOP_GRACE_MS);
  await exited;
  clearTimeout(timer);
}
