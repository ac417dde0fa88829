import { execFile } from 'node:child_process';
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import { temporaryFolder } from './bench-storage';
import type { LoadOptions, LoadResult } from './load-options';

const execFileAsync = promisify(execFile);

/** Prints wrk's summary as one JSON line once the load ends (its own report is for people). */
const SUMMARY = `done = function(summary, latency, requests)
  local e = summary.errors
  io.write(string.format('\\n{"requests":%d,"durationUs":%d,"p50Us":%d,"p99Us":%d,"maxUs":%d,"failures":%d}\\n',
    summary.requests, summary.duration, latency:percentile(50), latency:percentile(99), latency.max,
    e.connect + e.read + e.write + e.status + e.timeout))
end
`;

/** Whether `wrk` is on the PATH (it answers -v with its version, and exit code 1). */
export async function wrkInstalled(): Promise<boolean> {
  try {
    await execFileAsync('wrk', ['-v']);
    return true;
  } catch (error) {
    return String((error as { stdout?: unknown }).stdout ?? '').startsWith('wrk ');
  }
}

/**
 * Runs one wrk load, one thread: a load generator in C spends a fraction of autocannon's CPU per
 * request, so on a small machine more of it is left to the server under test. The request's method
 * and body come from a Lua script; the body is read from a file, so it needs no escaping.
 */
export async function runWrk(options: LoadOptions): Promise<LoadResult> {
  const folder = await temporaryFolder('wrk');
  const dir = folder.path;
  try {
    const lines = [`wrk.method = "${options.method}"`];
    if (options.body !== undefined) {
      await writeFile(path.join(dir, 'body.json'), options.body);
      lines.push(`local file = io.open(${JSON.stringify(path.join(dir, 'body.json'))}, "rb")`, 'wrk.body = file:read("*a")', 'file:close()');
      lines.push('wrk.headers["Content-Type"] = "application/json"');
    }
    const script = path.join(dir, 'load.lua');
    await writeFile(script, `${lines.join('\n')}\n${SUMMARY}`);
    const seconds = Math.max(1, Math.round(options.durationSeconds));
    const { stdout } = await execFileAsync('wrk', ['-t1', `-c${options.connections}`, `-d${seconds}s`, '--timeout', '10s', '-s', script, options.url]);
    const summary = JSON.parse(stdout.trim().split('\n').at(-1)!) as { requests: number; durationUs: number; p50Us: number; p99Us: number; maxUs: number; failures: number };
    return {
      requestsPerSecond: summary.requests / (summary.durationUs / 1e6),
      seconds: summary.durationUs / 1e6,
      p50Ms: summary.p50Us / 1000,
      p99Ms: summary.p99Us / 1000,
      maxMs: summary.maxUs / 1000,
      requests: summary.requests,
      failures: summary.failures,
    };
  } finally {
    await folder.remove();
  }
}
