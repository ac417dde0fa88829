import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { NODE_FLAGS } from '../../src/node-flags';
import { hashToken } from '../../src/publish/tenant-tokens';
import { REPO_ROOT, startRegistry } from '../helpers/start-registry';

const BIN = path.join(REPO_ROOT, 'bin', 'tessera.js');

export interface CliResult {
  code: number | null;
  /** The signal that ended it, when one did (then `code` is null). */
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
}

interface Teardown {
  teardown(fn: () => unknown): void;
}

/** Longer than any command that ends takes on a busy machine (a publish at a low priority beside other suites took over 25 s), shorter than a test file may run (180 s): one still running then is stopped, so its test fails rather than leaves it behind. */
const RUN_LIMIT_MS = 60_000;

/** Runs the real `tessera` binary to its end, with the registry's Node flags unless `nodeFlags` says otherwise (stopped with SIGINT past RUN_LIMIT_MS: a command that should have ended and serves instead). */
export function runCli(args: string[], options: { cwd?: string; env?: NodeJS.ProcessEnv; nodeFlags?: readonly string[] } = {}): Promise<CliResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [...(options.nodeFlags ?? NODE_FLAGS), BIN, ...args], { cwd: options.cwd ?? REPO_ROOT, env: options.env ?? cliEnv() });
    let stdout = '';
    let stderr = '';
    const limit = setTimeout(() => child.kill('SIGINT'), RUN_LIMIT_MS);
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.on('error', reject);
    child.on('close', (code, signal) => {
      clearTimeout(limit);
      resolve({ code, signal, stdout, stderr });
    });
  });
}

export interface RunningCli {
  child: ChildProcess;
  /** Everything written to stdout and stderr so far. */
  output(): string;
  /** Resolves with the first match of `pattern` in the output; rejects after `timeoutMs` or when the process exits. */
  waitFor(pattern: RegExp, timeoutMs?: number): Promise<RegExpMatchArray>;
}

/** Starts a long-running `tessera` command (with the registry's Node flags unless `nodeFlags` says otherwise); the test's teardown stops it by its pid. */
export function startCli(t: Teardown, args: string[], options: { cwd?: string; env?: NodeJS.ProcessEnv; nodeFlags?: readonly string[] } = {}): RunningCli {
  const child = spawn(process.execPath, [...(options.nodeFlags ?? NODE_FLAGS), BIN, ...args], { cwd: options.cwd ?? REPO_ROOT, env: options.env ?? cliEnv() });
  let output = '';
  let exited = false;
  const listeners = new Set<() => void>();
  const changed = () => listeners.forEach((listener) => listener());
  child.stdout!.on('data', (chunk: Buffer) => ((output += chunk.toString()), changed()));
  child.stderr!.on('data', (chunk: Buffer) => ((output += chunk.toString()), changed()));
  const closed = new Promise<void>((resolve) => child.on('close', () => ((exited = true), changed(), resolve())));
  t.teardown(async () => {
    // child.kill, unlike process.kill, does not throw for a process that has exited but not yet closed its output.
    if (!exited) child.kill('SIGTERM');
    await closed;
  });
  return {
    child,
    output: () => output,
    // An allowance for a machine busy with other work, never a measured bound: a start that passes it is stuck.
    waitFor(pattern, timeoutMs = 60_000) {
      return new Promise((resolve, reject) => {
        const timer = setTimeout(() => finish(new Error(`"${pattern}" did not appear within ${timeoutMs} ms; output:\n${output}`)), timeoutMs);
        const check = () => {
          const match = output.match(pattern);
          if (match) finish(undefined, match);
          else if (exited) finish(new Error(`the process exited before "${pattern}" appeared; output:\n${output}`));
        };
        const finish = (error?: Error, match?: RegExpMatchArray) => {
          clearTimeout(timer);
          listeners.delete(check);
          if (error) reject(error);
          else resolve(match!);
        };
        listeners.add(check);
        check();
      });
    },
  };
}

/** The JSON log lines a running command wrote so far (its other output left out). */
export function logLines<T>(cli: RunningCli): T[] {
  return cli
    .output()
    .split('\n')
    .filter((line) => line.startsWith('{'))
    .map((line) => JSON.parse(line) as T);
}

/** The test's environment without TESSERA_* variables, which would change what the commands do. */
export function cliEnv(extra: NodeJS.ProcessEnv = {}): NodeJS.ProcessEnv {
  const env = Object.fromEntries(Object.entries(process.env).filter(([key]) => !key.startsWith('TESSERA_')));
  return { ...env, ...extra };
}

/** Polls `probe` until it answers true; rejects after `timeoutMs` (a busy machine's allowance, never a measured bound). */
export async function eventually(probe: () => Promise<boolean>, timeoutMs = 30_000, intervalMs = 100): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await probe())) {
    if (Date.now() > deadline) throw new Error(`the condition did not hold within ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, intervalMs));
  }
}

/** A temporary folder, removed by the test's teardown. */
export async function workFolder(t: Teardown): Promise<string> {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'tessera-cli-'));
  t.teardown(() => rm(dir, { recursive: true, force: true }));
  return dir;
}

/** A registry where the token `cli-token` may publish `cli-*` components; answers its URL. */
export async function cliPublishRegistry(t: Teardown): Promise<string> {
  const { url } = await startRegistry(t, [], (config) => {
    config.limits.sandboxHosts = 1;
    config.publishTokens = [{ tenant: 'greeters', sha256: hashToken('cli-token'), components: ['cli-*'] }];
  });
  return url;
}
