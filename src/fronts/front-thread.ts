/**
 * A front thread (started by front-threads.ts): a registry front of its own (catalog, render
 * pipeline, HTTP on the main thread's port) over the sandbox hosts of the main thread's pool.
 */
import '../enable-compile-cache';
import { parentPort, workerData } from 'node:worker_threads';
import { createRegistry, type Registry } from '../registry';
import type { SharedHost } from '../sandbox/host-sharing';
import type { FrontThreadData } from './front-thread-data';
import type { MetricsJson } from '../metrics/registry-metrics';
import { PortCalls, type MessageEnd } from './port-calls';
import type { ExecutionRecord } from '../tail/execution-record';
import type { LastError } from '../tail/last-errors';

const data = workerData as FrontThreadData;
let registry: Registry | undefined;

const main: PortCalls = new PortCalls(parentPort as MessageEnd, {
  listen: async () => {
    await built;
    await registry!.listenOn(data.port);
  },
  // In their order, after the registry is built: a host announced while it was being built is not lost.
  hosts: (host: SharedHost) => void built.then(() => registry!.pool.hostAnnounced(host)),
  add: async ({ name, version }: { name: string; version: string }) => {
    await built;
    await registry!.catalog.add(name, version);
  },
  tenants: async () => {
    await built;
    await registry!.tenants.refresh();
  },
  metrics: async () => {
    await built;
    return registry!.metrics.registry.getMetricsAsJSON();
  },
  'last-errors': async (name: string) => {
    await built;
    return registry!.lastErrors.of(name);
  },
  drain: () => void built.then(() => registry!.readiness.drain()),
  'tail-watched': (entries: Array<[string, number]>) => void built.then(() => registry!.tails.setWatched(entries)),
  'tail-event': (record: ExecutionRecord) => void built.then(() => registry!.tails.deliver(record)),
  close: async () => {
    await built;
    await registry!.close();
  },
});

const config = {
  ...data.config,
  plugins: data.plugins.map(({ name, description }) => ({
    name,
    description,
    func: async (...args: unknown[]) => {
      const json = await main.call<string | undefined>('plugin', { name, args });
      return json === undefined ? undefined : (JSON.parse(json) as unknown);
    },
  })),
};

/** Publishes this thread handed to the main thread, counted: each one's key there. */
let publishes = 0;

const built = createRegistry(config, {
  logger: data.logger,
  frontThread: {
    index: data.index,
    fronts: data.fronts,
    hosts: data.hosts,
    recycle: (pid, reason) => main.tell('recycle', { pid, reason }),
    published: (name, version) => main.call('published', { name, version }),
    tenantsChanged: () => main.call('tenants'),
    // The upload's path goes to the main thread's publish pool: the process's one queue of publishes.
    publish: (job, file, left) => {
      const key = ++publishes;
      left.addEventListener('abort', () => main.tell('publish-left', key), { once: true });
      return main.call('publish', { job, file, key });
    },
    otherMetrics: () => main.call<MetricsJson[]>('metrics'),
    otherLastErrors: (name) => main.call<LastError[][]>('last-errors', name),
    tails: {
      admit: (watcher) => main.call<boolean>('tail-admit', watcher),
      release: (watcher) => main.tell('tail-release', watcher),
      forward: (record) => main.tell('tail-event', record),
    },
  },
}).then((created) => {
  registry = created;
});
