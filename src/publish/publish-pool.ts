import path from 'node:path';
import type { MessagePort } from 'node:worker_threads';
import type { Piscina } from 'piscina';
import type { StorageSettings } from '../storage/storage-settings';
import type { PublishOutcome } from './publish-outcome';
import type { PublishJob, PublishRules } from './publish-package';
import type { PublishTask, PublishThreadData } from './publish-worker';

const WORKER_FILE = path.join(__dirname, 'publish-worker.js');
/**
 * An idle publish thread ends after this long: a registry that only serves holds none, and one
 * receiving a series of publishes keeps its thread (and the modules it loaded) between them.
 */
const IDLE_MS = 60_000;
/**
 * How much lower than the fronts and sandbox hosts a publish thread is scheduled (nice(2), through
 * piscina's optional @napi-rs/nice; Linux gives each thread its own niceness). On CPUs that renders
 * keep busy, a publish gets about a tenth of what a render thread gets: renders keep their latency,
 * and a publish still ends within seconds. An idle machine runs a publish at full speed.
 */
const NICENESS = 10;

export interface PublishPoolOptions {
  /** `limits.publishThreads`: publishes running at once; more wait for a free thread. */
  threads: number;
  /** The registry's storage, which each thread builds again for itself. */
  storage: StorageSettings;
  rules: PublishRules;
}

/**
 * The registry's publish threads (one pool per process, in its main thread): everything a publish
 * costs (inflating, parsing the tarball, checking the descriptor and hashes, parsing `server.js`
 * for the dependency policy, hashing and writing to storage) runs there, apart from the front
 * threads' event loops and from the sandbox hosts, so that a large upload never holds up renders.
 */
export class PublishPool {
  readonly #options: PublishPoolOptions;
  #piscina: Piscina<PublishTask, PublishOutcome> | undefined;
  #inProgress = 0;

  constructor(options: PublishPoolOptions) {
    this.#options = options;
  }

  /** Runs the publish of the upload arriving on `body` in a publish thread; answers how it ended. */
  async run(job: PublishJob, body: MessagePort): Promise<PublishOutcome> {
    this.#inProgress += 1;
    try {
      return await this.#threads().run({ job, body }, { transferList: [body] });
    } finally {
      this.#inProgress -= 1;
    }
  }

  /** Publishes handed to the pool and not ended yet: running in a thread or waiting for one. */
  get inProgress(): number {
    return this.#inProgress;
  }

  /** Ends the threads; called once no request is under way. */
  async close(): Promise<void> {
    await this.#piscina?.destroy();
  }

  /** The pool, made on the first publish: a registry that only serves never loads piscina. */
  #threads(): Piscina<PublishTask, PublishOutcome> {
    if (this.#piscina) return this.#piscina;
    const options = this.#options;
    const workerData: PublishThreadData = { storage: options.storage, rules: options.rules };
    const { Piscina } = require('piscina') as typeof import('piscina');
    this.#piscina = new Piscina({
      filename: WORKER_FILE,
      name: 'publishTask',
      minThreads: 0,
      maxThreads: options.threads,
      idleTimeout: IDLE_MS,
      niceIncrement: NICENESS,
      // A task waits on its upload and on storage: between tasks the thread keeps its event loop
      // (connections to the store) instead of sleeping on Atomics.wait.
      atomics: 'disabled',
      recordTiming: false,
      workerData,
    });
    return this.#piscina;
  }
}
