import path from 'node:path';
import type { Piscina } from 'piscina';
import type { PublishOutcome } from './publish-outcome';
import type { PublishTask, PublishThreadData } from './publish-worker';

const WORKER_FILE = path.join(__dirname, 'publish-worker.js');
/**
 * An idle publish thread ends after this long: a registry that only serves holds none, and one
 * receiving a series of publishes (a pipeline packaging one component after another) keeps its
 * thread and the modules it loaded between them. A thread kept holds about 28 MB of resident memory
 * (it was kept 60 s, counted in the registry's memory under the load that followed a publish); a
 * thread started again costs the next publish about 75 ms (bench/FINDINGS.md).
 */
const IDLE_MS = 5_000;
/**
 * A publish thread's young generation, bounded too: left to Node 24's default, a thread parsing up to
 * its heap limit reached 310 MB of resident memory, 180 MB with this. A 3.6 MB bundle parsed no slower.
 */
const YOUNG_GENERATION_MB = 16;

export interface PublishThreadsOptions {
  /** Threads at most; none is kept while idle. */
  threads: number;
  /** Each thread's old generation, in MB (publish-thread-heap.ts). */
  heapMb: number;
  /**
   * `limits.publishThreadNiceness`: how much lower than the fronts and sandbox hosts a thread is
   * scheduled (nice(2), through piscina's optional @napi-rs/nice; Linux gives each thread its own
   * niceness). At 10, on CPUs that renders keep busy, a publish gets about a tenth of what a render
   * thread gets: renders keep their latency, and a publish still ends within seconds. An idle machine
   * runs a publish at full speed.
   */
  niceness: number;
  workerData: PublishThreadData;
  /** The thread's module, exporting `publishTask`: publish-worker.ts, or a test's. */
  filename?: string;
  /** Told of a thread that ended with no task of its own (below). */
  onLost(error: Error): void;
}

/** The threads of a registry's publish pool (publish-pool.ts decides what runs on them, and when). */
export function startPublishThreads(options: PublishThreadsOptions): Piscina<PublishTask, PublishOutcome> {
  const { Piscina } = require('piscina') as typeof import('piscina');
  const threads = new Piscina<PublishTask, PublishOutcome>({
    filename: options.filename ?? WORKER_FILE,
    name: 'publishTask',
    minThreads: 0,
    maxThreads: options.threads,
    idleTimeout: IDLE_MS,
    niceIncrement: options.niceness,
    resourceLimits: { maxOldGenerationSizeMb: options.heapMb, maxYoungGenerationSizeMb: YOUNG_GENERATION_MB },
    // A task waits on its upload and on storage: between tasks the thread keeps its event loop
    // (connections to the store) instead of sleeping on Atomics.wait.
    atomics: 'disabled',
    recordTiming: false,
    workerData: options.workerData,
  });
  // A thread that ends with no task of its own (past its heap after its task was let go: its
  // deadline passed) is nothing anyone waits for, and piscina starts another for the next task; the
  // operator is told. Unheard, piscina's 'error' event would end the registry's process: seen when a
  // package's parse outlived its deadline on a machine running two test suites at once.
  threads.on('error', (error: Error) => options.onLost(error));
  return threads;
}
