import { fork } from 'node:child_process';
import path from 'node:path';

export interface LoadOptions {
  url: string;
  connections: number;
  durationSeconds: number;
  method: 'GET' | 'POST';
  /** A JSON request body (sent with `Content-Type: application/json`). */
  body?: string;
}

export interface LoadResult {
  requestsPerSecond: number;
  p50Ms: number;
  p99Ms: number;
  requests: number;
  /** Connection errors, timeouts and non-2xx answers together. */
  failures: number;
}

const LOAD_GENERATOR = path.join(__dirname, 'load-generator.js');

/** Runs autocannon against `options.url` in a child process and answers its summary. */
export function runLoad(options: LoadOptions): Promise<LoadResult> {
  return new Promise((resolve, reject) => {
    const child = fork(LOAD_GENERATOR, [], { stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
    let result: LoadResult | undefined;
    child.once('message', (message: LoadResult) => (result = message));
    child.once('error', reject);
    child.once('exit', (code) => (result ? resolve(result) : reject(new Error(`The load generator exited with code ${code} before answering.`))));
    child.send(options);
  });
}

/** A short unmeasured load (JIT, warm isolates, connection set-up), then the measured one. */
export async function warmThenMeasure(options: LoadOptions, warmupSeconds: number): Promise<LoadResult> {
  if (warmupSeconds > 0) await runLoad({ ...options, durationSeconds: warmupSeconds });
  return runLoad(options);
}
