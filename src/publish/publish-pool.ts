import path from 'node:path';
import type { MessagePort } from 'node:worker_threads';
import { Piscina } from 'piscina';
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
  readonly #piscina: Piscina<PublishTask, PublishOutcome>;
  #inProgress = 0;

  constructor(options: PublishPoolOptions) {
    const workerData: PublishThreadData = { storage: options.storage, rules: options.rules };
    this.#piscina = new Piscina({
      filename: WORKER_FILE,
      name: 'publishTask',
      minThreads: 0,
      maxThreads: options.threads,
      idleTimeout: IDLE_MS,
      // A task waits on its upload and on storage: between tasks the thread keeps its event loop
      // (connections to the store) instead of sleeping on Atomics.wait.
      atomics: 'disabled',
      recordTiming: false,
      workerData,
    });
  }

  /** Runs the publish of the upload arriving on `body` in a publish thread; answers how it ended. */
  async run(job: PublishJob, body: MessagePort): Promise<PublishOutcome> {
    this.#inProgress += 1;
    try {
      return await this.#piscina.run({ job, body }, { transferList: [body] });
    } finally {
      this.#inProgress -= 1;
    }
  }

  /** Publishes handed to the pool and not ended yet: running in a thread or waiting for one. */
  get inProgress(): number {
    return this.#inProgress;
  }

  /** Ends the threads; called once no request is under way. */
  close(): Promise<void> {
    return this.#piscina.destroy();
  }
}
