import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';

/**
 * What a test file can leave changed in its process for the files run after it in the same part of
 * the suite (`run-files.ts`): the environment (an S3 server's AWS variables), and V8's `--expose-gc`
 * (every context made after it has a `gc` global). `changesSince(before)` names what differs from
 * the snapshot `before`, and `restore(before)` puts it back, so that one file's leak fails that file
 * and not the next one.
 */
export interface ProcessState {
  env: Record<string, string | undefined>;
  gcExposed: boolean;
}

export const processState = (): ProcessState => ({ env: { ...process.env }, gcExposed: runInNewContext('typeof gc') === 'function' });

export function changesSince(before: ProcessState): string[] {
  const now = processState();
  const keys = new Set([...Object.keys(before.env), ...Object.keys(now.env)]);
  const env = [...keys].filter((key) => before.env[key] !== now.env[key]).sort().map((key) => `the environment's ${key}`);
  return now.gcExposed === before.gcExposed ? env : [...env, `V8's --expose-gc (${now.gcExposed ? 'set' : 'unset'})`];
}

export function restore(before: ProcessState): void {
  for (const key of Object.keys(process.env)) if (!(key in before.env)) delete process.env[key];
  Object.assign(process.env, before.env);
  setFlagsFromString(before.gcExposed ? '--expose-gc' : '--no-expose-gc');
}
