import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { Catalog } from './catalog/catalog';
import type { RegistryConfig } from './config/config';
import { createApp } from './front/create-app';
import { RegistryMetrics } from './metrics/registry-metrics';
import { createBridgeAnswerer } from './pipeline/bridge-calls';
import { RenderPipeline } from './pipeline/render';
import { SandboxPool } from './sandbox/sandbox-pool';
import { FileSystemStorage } from './storage/fs-storage';
import type { StorageAdapter } from './storage/storage-adapter';

export interface Registry {
  app: FastifyInstance;
  catalog: Catalog;
  storage: StorageAdapter;
  pool: SandboxPool;
  /** This registry's own metrics (served at `/metrics`). */
  metrics: RegistryMetrics;
  /** Listens on the configured port and host; answers the base URL (`http://127.0.0.1:3030/`). */
  listen(): Promise<string>;
  close(): Promise<void>;
}

/** Wires storage, catalog, sandbox pool, render pipeline and HTTP front into one registry. */
export async function createRegistry(config: RegistryConfig, options: { logger?: boolean; storage?: StorageAdapter } = {}): Promise<Registry> {
  const storage = options.storage ?? new FileSystemStorage(path.resolve(config.storagePath));
  const catalog = new Catalog(storage);
  await catalog.refresh();

  const metrics = new RegistryMetrics();
  const pool = new SandboxPool({
    limits: {
      memoryMb: config.limits.memoryMb,
      timeoutMs: config.limits.executionTimeoutMs,
      maxResultChars: config.limits.maxResultBytes,
      maxWarmIsolates: config.limits.maxWarmIsolatesPerHost,
      warmIsolateBytes: config.limits.warmIsolateMbPerHost * 1024 * 1024,
      maxNestedBatch: config.limits.maxBatchSize,
    },
    hosts: config.limits.sandboxHosts,
    maxQueue: config.limits.maxQueue,
    concurrentPerHost: config.limits.concurrentPerHost,
    maxConcurrentPerComponent: config.limits.maxConcurrentPerComponent,
    hostMemoryBytes: config.limits.hostMemoryMb * 1024 * 1024,
    bridge: (request) => bridge(request),
    events: metrics.sandboxEvents,
  });
  metrics.observePool(pool);
  const pipeline = new RenderPipeline(catalog, pool, config, metrics);
  const bridge = createBridgeAnswerer(pipeline, config.plugins);
  const app = createApp({ config, catalog, storage, pipeline, metrics }, { logger: options.logger });

  const poll =
    config.pollIntervalSeconds > 0
      ? setInterval(() => void catalog.refresh().catch((error: unknown) => app.log.error(error)), config.pollIntervalSeconds * 1000).unref()
      : undefined;

  return {
    app,
    catalog,
    storage,
    pool,
    metrics,
    // fastify may name the loopback `localhost`, which some clients resolve to IPv6 first.
    listen: async () => `${(await app.listen({ port: config.port, host: config.host })).replace('localhost', '127.0.0.1')}/`,
    async close() {
      if (poll) clearInterval(poll);
      await app.close();
      await pool.close();
    },
  };
}
