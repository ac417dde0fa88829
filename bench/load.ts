import { fork } from 'node:child_process';
import path from 'node:path';
import { processTreeCpu, processTreeUsage } from './process-tree';
import type { LoadOptions, LoadResult } from './load-options';
import { runWrk } from './wrk-load';

/** How often resident memory is read during a load: often enough to meet a peak of a few hundred ms. */
const RSS_SAMPLE_MS = 100;

/** Reads the resident memory of a process tree until `stop` is called, which answers the most seen. */
function samplePeakRss(pid: number): () => Promise<number> {
  let peak = 0;
  let sampling = true;
  const sample = async () => {
    while (sampling) {
      peak = Math.max(peak, (await processTreeUsage(pid)).rssBytes);
      await new Promise((resolve) => setTimeout(resolve, RSS_SAMPLE_MS));
    }
  };
  const done = sample();
  return async () => {
    sampling = false;
    await done;
    return peak;
  };
}

const LOAD_GENERATOR = path.join(__dirname, 'load-generator.js');

/** Runs one load against `options.url` with the chosen generator and answers its summary. */
export async function runLoad(options: LoadOptions): Promise<LoadResult> {
  const load = () => (options.generator === 'wrk' ? runWrk(options) : runAutocannon(options));
  if (options.serverPid === undefined) return load();
  const before = await processTreeCpu(options.serverPid);
  const stopSampling = samplePeakRss(options.serverPid);
  const result = await load();
  const after = await processTreeCpu(options.serverPid);
  const peakRssBytes = await stopSampling();
  return { ...result, peakRssBytes, cpuSeconds: { own: after.own - before.own, descendants: Math.max(0, after.descendants - before.descendants) } };
}

/** Runs autocannon in a child process of its own, so that it shares no event loop with anything measured. */
function runAutocannon(options: LoadOptions): Promise<LoadResult> {
  return new Promise((resolve, reject) => {
    const child = fork(LOAD_GENERATOR, [], { stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
    let result: LoadResult | undefined;
    child.once('message', (message: LoadResult) => (result = message));
    child.once('error', reject);
    child.once('exit', (code) => (result ? resolve(result) : reject(new Error(`The load generator exited with code ${code} before answering.`))));
    child.send(options);
  });
}

/** What two servers measured in alternating rounds answered: each one's whole load, and the ratio per round. */
export interface AlternatingResult {
  subject: LoadResult;
  reference: LoadResult;
  /** subject req/s over reference req/s, one per round, in the order measured. */
  roundRatios: number[];
}

/**
 * Warms both servers (unmeasured), then measures them in turn, `rounds` times each: subject,
 * reference, subject, reference… Load from elsewhere on the machine comes and goes over seconds;
 * alternating short rounds makes both sides meet it alike, so their ratio holds steadier than
 * one long measurement of each after the other.
 */
export async function measureInRounds(
  subject: LoadOptions,
  reference: LoadOptions,
  settings: { rounds: number; warmupSeconds: number },
): Promise<AlternatingResult> {
  if (settings.warmupSeconds > 0) {
    await runLoad({ ...subject, durationSeconds: settings.warmupSeconds });
    await runLoad({ ...reference, durationSeconds: settings.warmupSeconds });
  }
  const subjectRounds: LoadResult[] = [];
  const referenceRounds: LoadResult[] = [];
  for (let round = 0; round < settings.rounds; round++) {
    subjectRounds.push(await runLoad(subject));
    referenceRounds.push(await runLoad(reference));
  }
  return {
    subject: combine(subjectRounds),
    reference: combine(referenceRounds),
    roundRatios: subjectRounds.map((result, round) => result.requestsPerSecond / referenceRounds[round]!.requestsPerSecond),
  };
}

/** Rounds as one load: req/s over the whole measured time, the median round's p50, the worst round's p99 and max, CPU summed. */
export function combine(rounds: LoadResult[]): LoadResult {
  const requests = rounds.reduce((sum, round) => sum + round.requests, 0);
  const seconds = rounds.reduce((sum, round) => sum + round.seconds, 0);
  const measuredCpu = rounds.every((round) => round.cpuSeconds !== undefined);
  const measuredRss = rounds.every((round) => round.peakRssBytes !== undefined);
  return {
    ...(measuredRss && { peakRssBytes: Math.max(...rounds.map((round) => round.peakRssBytes!)) }),
    ...(measuredCpu && {
      cpuSeconds: {
        own: rounds.reduce((sum, round) => sum + round.cpuSeconds!.own, 0),
        descendants: rounds.reduce((sum, round) => sum + round.cpuSeconds!.descendants, 0),
      },
    }),
    requestsPerSecond: requests / seconds,
    p50Ms: median(rounds.map((round) => round.p50Ms)),
    p99Ms: Math.max(...rounds.map((round) => round.p99Ms)),
    maxMs: Math.max(...rounds.map((round) => round.maxMs)),
    seconds,
    requests,
    failures: rounds.reduce((sum, round) => sum + round.failures, 0),
  };
}

export function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
}
