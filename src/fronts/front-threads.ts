import path from 'node:path';
import { Worker } from 'node:worker_threads';
import type { Catalog } from '../catalog/catalog';
import type { RegistryConfig } from '../config/config';
import type { MetricsJson, RegistryMetrics } from '../metrics/registry-metrics';
import type { PublishOutcome } from '../publish/publish-outcome';
import type { PublishJob } from '../publish/publish-package';
import type { RecycleReason, SharedHost } from '../sandbox/host-sharing';
import type { SandboxPool } from '../sandbox/sandbox-pool';
import type { TenantDirectory } from '../tenants/tenant-directory';
import type { ExecutionRecord } from '../tail/execution-record';
import type { MainTails } from '../tail/main-tails';
import type { LastError, LastErrors } from '../tail/last-errors';
import { PortCalls } from './port-calls';
import type { FrontThreadData } from './front-thread-data';

const THREAD_FILE = path.join(__dirname, 'front-thread.js');
/** A front thread that ended unasked is started again after this pause. */
const RESTART_PAUSE_MS = 1000;

/** What the main thread's registry lends its front threads. */
export interface MainFront {
  config: RegistryConfig;
  catalog: Catalog;
  tenants: TenantDirectory;
  metrics: RegistryMetrics;
  pool: SandboxPool;
  /** The process's tails: admitted here, their records carried between the threads. */
  tails: MainTails;
  /** The main thread's front's last failures of each component. */
  lastErrors: LastErrors;
  /** Runs a publish in the process's one publish pool. */
  publish(job: PublishJob, file: string, left: AbortSignal): Promise<PublishOutcome>;
  logger: boolean;
  log(message: string): void;
}

interface Thread {
  readonly index: number;
  readonly worker: Worker;
  readonly calls: PortCalls;
}

/**
 * The registry's other front threads, seen from the main thread: each serves HTTP on the same port
 * (the kernel spreads connections over the listening sockets) with its own catalog and render
 * pipeline, over the sandbox hosts the main thread's pool owns. The main thread tells them each host
 * it starts, and speaks between them: a version published through one is indexed by all before its
 * publish is answered, and `/metrics` on any front sums all of them.
 */
export class FrontThreads {
  readonly #main: MainFront;
  readonly #count: number;
  readonly #threads: Thread[] = [];
  /** The latest host of each slot, for threads started after it was announced. */
  readonly #hosts: SharedHost[] = [];
  #closing = false;

  /** `count` threads besides the main thread's front. */
  constructor(main: MainFront, count: number) {
    this.#main = main;
    this.#count = count;
    main.tails.reachFronts({
      watched: (entries) => {
        for (const thread of this.#threads) thread.calls.tell('tail-watched', entries);
      },
      relay: (record, fronts) => {
        for (const thread of this.#threads) if (fronts.includes(thread.index)) thread.calls.tell('tail-event', record);
      },
    });
  }

  /** Starts the threads and answers once each listens on `port`. */
  async start(port: number): Promise<void> {
    await Promise.all(Array.from({ length: this.#count }, (_, index) => this.#startThread(port, index + 1)));
  }

  async #startThread(port: number, index: number): Promise<void> {
    const { config } = this.#main;
    const data: FrontThreadData = {
      index,
      fronts: this.#count + 1,
      config: { ...config, plugins: [] },
      plugins: config.plugins.map(({ name, description }) => ({ name, description })),
      // Slots in the order their hosts became ready: holes skipped.
      hosts: this.#hosts.filter((host) => host !== undefined),
      port,
      logger: this.#main.logger,
    };
    const worker = new Worker(THREAD_FILE, { workerData: data });
    /** This thread's publishes handed to the pool, by the thread's key for each. */
    const leaving = new Map<number, AbortController>();
    const thread: Thread = {
      index,
      worker,
      calls: new PortCalls(worker, {
        recycle: ({ pid, reason }: { pid: number; reason: RecycleReason }) => this.#main.pool.recycleHost(pid, reason),
        // Its value as JSON, as a plugin call answers it in the main thread's own front: a plugin may
        // return what cannot be copied between threads (a function), which JSON leaves out.
        plugin: async ({ name, args }: { name: string; args: unknown[] }) => {
          const plugin = config.plugins.find((candidate) => candidate.name === name);
          if (!plugin) throw new Error(`The registry has no plugin "${name}".`);
          return JSON.stringify(await plugin.func(...args));
        },
        publish: async ({ job, file, key }: { job: PublishJob; file: string; key: number }) => {
          const left = new AbortController();
          leaving.set(key, left);
          try {
            return await this.#main.publish(job, file, left.signal);
          } finally {
            leaving.delete(key);
          }
        },
        // The thread's client closed the connection: its publish, if still waiting, never runs.
        'publish-left': (key: number) => leaving.get(key)?.abort(),
        published: async ({ name, version }: { name: string; version: string }) => {
          await this.#main.catalog.add(name, version);
          await this.#others(thread, (other) => other.calls.call('add', { name, version }));
        },
        metrics: async () => [await this.#main.metrics.registry.getMetricsAsJSON(), ...(await this.#others(thread, (other) => other.calls.call<MetricsJson>('metrics')))],
        'last-errors': async (name: string) => [this.#main.lastErrors.of(name), ...(await this.#others(thread, (other) => other.calls.call<LastError[]>('last-errors', name)))],
        tenants: async () => {
          await this.#main.tenants.refresh();
          await this.#others(thread, (other) => other.calls.call('tenants'));
        },
        // The watched tenants reach every thread (this one included) before its tail's opening is answered.
        'tail-admit': (watcher: string) => this.#main.tails.admitFor(index, watcher),
        'tail-release': (watcher: string) => this.#main.tails.releaseFor(index, watcher),
        'tail-event': (record: ExecutionRecord) => this.#main.tails.forwardFrom(index, record),
      }),
    };
    this.#threads.push(thread);
    worker.on('error', (error) => this.#main.log(`a front thread failed: ${error.stack ?? error.message}`));
    worker.on('exit', () => {
      thread.calls.abandon('The front thread ended.');
      this.#threads.splice(this.#threads.indexOf(thread), 1);
      this.#main.tails.frontEnded(index);
      // A front thread runs no tenant code: one that ends unasked is a fault of the registry's,
      // replaced after a pause (so that one failing at its start does not spin).
      if (this.#closing) return;
      setTimeout(() => {
        if (!this.#closing) void this.#startThread(port, index).catch((error: unknown) => this.#main.log(`a front thread could not start again: ${String(error)}`));
      }, RESTART_PAUSE_MS).unref();
    });
    await thread.calls.call('listen');
  }

  #others<T>(except: Thread | undefined, ask: (thread: Thread) => Promise<T>): Promise<T[]> {
    return Promise.all(this.#threads.filter((thread) => thread !== except).map(ask));
  }

  /** The main thread's pool started a host (at the start, or replacing one). */
  announce(host: SharedHost): void {
    this.#hosts[host.slot] = host;
    for (const thread of this.#threads) thread.calls.tell('hosts', host);
  }

  /** A version published through the main thread's front: every thread indexes it. */
  async published(name: string, version: string): Promise<void> {
    await this.#others(undefined, (thread) => thread.calls.call('add', { name, version }));
  }

  /** Tenants or tokens were written through the main thread's front: every thread reads them again. */
  async tenantsChanged(): Promise<void> {
    await this.#others(undefined, (thread) => thread.calls.call('tenants'));
  }

  /** The metrics of every front thread. */
  metrics(): Promise<MetricsJson[]> {
    return this.#others(undefined, (thread) => thread.calls.call<MetricsJson>('metrics'));
  }

  /** A component's last failures on every front thread. */
  lastErrors(name: string): Promise<LastError[][]> {
    return this.#others(undefined, (thread) => thread.calls.call<LastError[]>('last-errors', name));
  }

  /** `/readyz` turns 503 on every thread, and each response closes its connection. */
  drain(): void {
    for (const thread of this.#threads) thread.calls.tell('drain');
  }

  /** Each thread closes its listener, finishes its requests and lets go of the hosts; then it ends. */
  async close(): Promise<void> {
    this.#closing = true;
    await Promise.all(
      this.#threads.map(async (thread) => {
        await thread.calls.call('close').catch(() => {});
        await thread.worker.terminate();
      }),
    );
  }
}
