/**
 * A load right after the registry sat idle, in two builds, in alternating runs (A B, B A, …): what
 * the first seconds of a load cost once a quiet front gave its memory back (src/front/idle-memory.ts),
 * which `run.ts`'s alternating rounds, 3 s apart, never show. Each run starts the checkout's own
 * registry with its own Node flags (compare-checkouts.ts), loads it for 5 s, leaves it idle, then
 * measures the load's first 2 s and the 6 s after them: req/s, p99, the slowest answer, CPU per
 * request of the registry and of its hosts, and the process tree's peak RSS.
 *
 *   node --no-node-snapshot dist/bench/after-a-pause.js <checkout A> <checkout B> [load] [pairs] [idle seconds]
 *
 * A load is one of side-by-side.ts's (`render`, `"oc-batch-5, 4 versions"`, …). Prints each run, then the medians.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { alternatingRuns, LOADS, startCheckoutRegistry } from './compare-checkouts';
import type { LoadOptions, LoadResult } from './load-options';
import { median, runLoad } from './load';
import type { BenchRequest } from './scenario';
import { wrkInstalled } from './wrk-load';

const CONNECTIONS = 50;
const WARMUP_SECONDS = 5;
const FIRST_SECONDS = 2;
const NEXT_SECONDS = 6;

interface Window {
  requestsPerSecond: number;
  p99Ms: number;
  maxMs: number;
  frontUs: number;
  hostsUs: number;
  peakMb: number;
}

const windowOf = (result: LoadResult): Window => ({
  requestsPerSecond: result.requestsPerSecond,
  p99Ms: result.p99Ms,
  maxMs: result.maxMs,
  frontUs: (result.cpuSeconds!.own * 1e6) / result.requests,
  hostsUs: (result.cpuSeconds!.descendants * 1e6) / result.requests,
  peakMb: result.peakRssBytes! / 2 ** 20,
});

const describe = (window: Window): string =>
  `${Math.round(window.requestsPerSecond)} req/s, p99 ${window.p99Ms.toFixed(1)} ms, slowest ${window.maxMs.toFixed(1)} ms, ` +
  `${window.frontUs.toFixed(0)} + ${window.hostsUs.toFixed(0)} hosts µs per request, peak ${window.peakMb.toFixed(0)} MB`;

async function runOnce(checkout: string, storagePath: string, load: BenchRequest, idleSeconds: number, generator: LoadOptions['generator']): Promise<[Window, Window]> {
  const server = await startCheckoutRegistry(checkout, storagePath);
  try {
    const options = { generator, url: server.url + load.path, connections: CONNECTIONS, method: load.method, body: load.body, serverPid: server.pid };
    await runLoad({ ...options, durationSeconds: WARMUP_SECONDS });
    await sleep(idleSeconds * 1000);
    const first = await runLoad({ ...options, durationSeconds: FIRST_SECONDS });
    const next = await runLoad({ ...options, durationSeconds: NEXT_SECONDS });
    if (first.failures + next.failures > 0) throw new Error(`${first.failures + next.failures} requests failed.`);
    return [windowOf(first), windowOf(next)];
  } finally {
    await server.stop();
  }
}

const medianWindow = (windows: Window[]): Window => {
  const of = (key: keyof Window) => median(windows.map((window) => window[key]));
  return { requestsPerSecond: of('requestsPerSecond'), p99Ms: of('p99Ms'), maxMs: of('maxMs'), frontUs: of('frontUs'), hostsUs: of('hostsUs'), peakMb: of('peakMb') };
};

async function main(): Promise<void> {
  const [a, b, loadName = 'render', pairsText = '3', idleText = '10'] = process.argv.slice(2);
  const load = LOADS[loadName];
  if (!a || !b || !load) throw new Error(`Usage: after-a-pause.js <checkout A> <checkout B> [${Object.keys(LOADS).join(' | ')}] [pairs] [idle seconds]`);
  const generator = (await wrkInstalled()) ? 'wrk' : 'autocannon';
  const runs = await alternatingRuns({ A: a, B: b }, Number(pairsText), async (checkout, label, storagePath) => {
    const run = await runOnce(checkout, storagePath, load, Number(idleText), generator);
    console.log(`${label} first ${FIRST_SECONDS} s: ${describe(run[0])}; next ${NEXT_SECONDS} s: ${describe(run[1])}`);
    return run;
  });
  for (const label of ['A', 'B'] as const) {
    const own = runs[label];
    console.log(`${label} median, first ${FIRST_SECONDS} s: ${describe(medianWindow(own.map((run) => run[0])))}; next ${NEXT_SECONDS} s: ${describe(medianWindow(own.map((run) => run[1])))}`);
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
