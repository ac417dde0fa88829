/**
 * CPU per request of two builds of the registry under one load, in alternating runs (A B B A …):
 * what `run.ts` cannot tell apart when a change costs a few microseconds and the machine's other
 * work moves every figure by more. Each run starts the build's own registry with its own Node flags
 * (compare-checkouts.ts) over the same packaged storage, sends a fixed number of requests after a
 * warm-up, and reads the CPU of the registry and of its sandbox hosts from `/proc`.
 *
 *   node --no-node-snapshot dist/bench/side-by-side.js <checkout A> <checkout B> [load] [pairs] [requests]
 *
 * A load is `render`, `batch-5`, `nested`, or one of against-oc's (`"oc-batch-5, 4 versions"`).
 *
 * Each checkout must be built (`npm run build`). Prints each run, then the medians.
 */
import { alternatingRuns, LOADS, startCheckoutRegistry } from './compare-checkouts';
import type { LoadResult } from './load-options';
import { median, runLoad } from './load';
import type { BenchRequest } from './scenario';
const CONNECTIONS = 50;
const WARMUP_REQUESTS = 20_000;

/** A fixed number of requests with autocannon (wrk sends for a duration), the server's CPU read around them when `serverPid` is given. */
const sendRequests = (url: string, load: BenchRequest, amount: number, serverPid?: number): Promise<LoadResult> =>
  runLoad({ generator: 'autocannon', url: url + load.path, connections: CONNECTIONS, durationSeconds: 0, method: load.method, body: load.body, amount, serverPid });

interface Run {
  label: string;
  frontUs: number;
  hostsUs: number;
  requestsPerSecond: number;
}

async function runOnce(checkout: string, label: string, storagePath: string, load: BenchRequest, requests: number): Promise<Run> {
  const server = await startCheckoutRegistry(checkout, storagePath);
  try {
    await sendRequests(server.url, load, WARMUP_REQUESTS);
    const result = await sendRequests(server.url, load, requests, server.pid);
    if (result.failures > 0) throw new Error(`${label}: ${result.failures} of ${result.requests} requests failed.`);
    const cpu = result.cpuSeconds!;
    return { label, frontUs: (cpu.own * 1e6) / result.requests, hostsUs: (cpu.descendants * 1e6) / result.requests, requestsPerSecond: result.requestsPerSecond };
  } finally {
    await server.stop();
  }
}

async function main(): Promise<void> {
  const [a, b, loadName = 'render', pairsText = '5', requestsText = '100000'] = process.argv.slice(2);
  const load = LOADS[loadName];
  if (!a || !b || !load) throw new Error(`Usage: side-by-side.js <checkout A> <checkout B> [${Object.keys(LOADS).join(' | ')}] [pairs] [requests]`);
  const runs = await alternatingRuns({ A: a, B: b }, Number(pairsText), async (checkout, label, storagePath) => {
    const run = await runOnce(checkout, label, storagePath, load, Number(requestsText));
    console.log(`${label} ${run.frontUs.toFixed(1)} + ${run.hostsUs.toFixed(1)} hosts µs per request, ${Math.round(run.requestsPerSecond)} req/s`);
    return run;
  });
  for (const label of ['A', 'B'] as const) {
    const own = runs[label];
    console.log(`${label} median: ${median(own.map((run) => run.frontUs)).toFixed(1)} + ${median(own.map((run) => run.hostsUs)).toFixed(1)} hosts µs per request (${own.length} runs)`);
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
