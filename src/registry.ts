import type { FastifyInstance } from 'fastify';
import { Catalog } from './catalog/catalog';
import type { RegistryConfig } from './config/config';
import { createApp } from './front/create-app';
import { Readiness } from './front/readiness';
import { RegistryMetrics } from './metrics/registry-metrics';
import { createBridgeAnswerer } from './pipeline/bridge-calls';
import { RenderPipeline } from './pipeline/render';
import { SandboxPool } from './sandbox/sandbox-pool';
import { createStorage } from './storage/create-storage';
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
  /**
   * Stops gracefully (SIGTERM): `/readyz` turns 503 at once while requests are still served for
   * `limits.drainDelayMs` (load balancers stop sending), then the listener closes and in-flight requests
   * finish, all within `limits.drainTimeoutMs`. Answers whether everything finished in time.
   */
  drain(): Promise<boolean>;
}

/** Wires storage, catalog, sandbox pool, render pipeline and HTTP front into one registry. */
export async function createRegistry(config: RegistryConfig, options: { logger?: boolean; storage?: StorageAdapter } = {}): Promise<Registry> {
  const storage = options.storage ?? createStorage(config.storagePath, { timeoutMs: config.limits.storageTimeoutMs });
  const catalog = new Catalog(storage);
  await catalog.refresh();

  const metrics = new RegistryMetrics();
  const pool = new SandboxPool({
    limits: {
      memoryMb: config.limits.memoryMb,
      timeoutMs: config.limits.executionTimeoutMs,
      maxResultChars: config.limits.maxResultBytes,
      maxWarmIsolates: config.limits.maxWarmIsolatesPerWorker,
    },
    workers: config.limits.workers,
    maxQueue: config.limits.maxQueue,
    concurrentPerWorker: config.limits.concurrentPerWorker,
    maxConcurrentPerComponent: config.limits.maxConcurrentPerComponent,
    bridge: (request) => bridge(request),
    events: metrics.sandboxEvents,
  });
  metrics.observePool(pool);
  const pipeline = new RenderPipeline(catalog, pool, config, metrics);
  // Called only once serving, when `app` exists: nested renders log under their root request's id.
  const bridge = createBridgeAnswerer(pipeline, config.plugins, (fields, message) => app.log.info(fields, message));
  const readiness = new Readiness(async () => (await pool.stats()).workers > 0);
  const app = createApp({ config, catalog, storage, pipeline, metrics, readiness }, { logger: options.logger });

  const poll =
    config.pollIntervalSeconds > 0
      ? setInterval(() => void catalog.refresh().catch((error: unknown) => app.log.error(error)), config.pollIntervalSeconds * 1000).unref()
      : undefined;

  let closed: Promise<void> | undefined;
  // Once: draining ends by closing, and whoever owns the registry may close it again.
  const close = () =>
    (closed ??= (async () => {
      readiness.drain();
      if (poll) clearInterval(poll);
      await app.close();
      await pool.close();
      await storage.close?.();
    })());
  return {
    app,
    catalog,
    storage,
    pool,
    metrics,
    // fastify may name the loopback `localhost`, which some clients resolve to IPv6 first.
    listen: async () => `${(await app.listen({ port: config.port, host: config.host })).replace('localhost', '127.0.0.1')}/`,
    close,
    async drain() {
      readiness.drain();
      const finished = (async () => {
        await new Promise((resolve) => setTimeout(resolve, Math.min(config.limits.drainDelayMs, config.limits.drainTimeoutMs)));
        await close();
        return true;
      })();
      const bound = new Promise<boolean>((resolve) => setTimeout(() => resolve(false), config.limits.drainTimeoutMs).unref());
      return Promise.race([finished, bound]);
    },
  };
}
