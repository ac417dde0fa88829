import type { AddressInfo } from 'node:net';
import type { FastifyInstance } from 'fastify';
import { Catalog } from './catalog/catalog';
import { pollStorage } from './catalog/poll-storage';
import type { RegistryConfig } from './config/config';
import { createApp } from './front/create-app';
import { listenUrl, PublicBaseUrl } from './front/public-base-url';
import { Readiness } from './front/readiness';
import { observeCatalog } from './metrics/catalog-metrics';
import { RegistryMetrics } from './metrics/registry-metrics';
import { createBridgeAnswerer } from './pipeline/bridge-calls';
import { RenderPipeline } from './pipeline/render';
import { SandboxPool } from './sandbox/sandbox-pool';
import { createStorage } from './storage/create-storage';
import type { StorageAdapter } from './storage/storage-adapter';

/** Past the execution time limit, how long a close waits for the last requests before it cuts connections. */
const CLOSE_MARGIN_MS = 2000;

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
  // A stored version that cannot be read is skipped and told once (decisions §12), after the app's logger exists.
  const catalog = new Catalog(storage, (id, reason) => app.log.error(`skipped ${id}: it cannot be read from storage: ${reason}`));

  const metrics = new RegistryMetrics();
  observeCatalog(metrics.registry, catalog);
  let logHostOutput = (_pid: number, text: string): void => void process.stderr.write(text);
  const pool = new SandboxPool({
    limits: {
      memoryMb: config.limits.memoryMb,
      timeoutMs: config.limits.executionTimeoutMs,
      maxResultChars: config.limits.maxResultBytes,
      maxWarmIsolates: config.limits.maxWarmIsolatesPerHost,
      warmIsolateBytes: config.limits.warmIsolateMbPerHost * 1024 * 1024,
      maxNestedBatch: config.limits.maxBatchSize,
      maxNestedRenders: config.limits.maxExecutionsPerRequest,
    },
    hosts: config.limits.sandboxHosts,
    maxQueue: config.limits.maxQueue,
    concurrentPerHost: config.limits.concurrentPerHost,
    maxConcurrentPerComponent: config.limits.maxConcurrentPerComponent,
    hostMemoryBytes: config.limits.hostMemoryMb * 1024 * 1024,
    bridge: (request) => bridge(request),
    events: metrics.sandboxEvents,
    // Through the registry's log once it exists; a host can write before that (a failed start).
    logHostOutput: (pid, text) => logHostOutput(pid, text),
  });
  metrics.observePool(pool);
  const pipeline = new RenderPipeline(catalog, pool, config, metrics);
  // Called only once serving, when `app` exists: nested renders log under their root request's id.
  const logLine = (fields: Record<string, unknown>, message: string) => app.log.info(fields, message);
  const bridge = createBridgeAnswerer(pipeline, config.plugins, { failed: logLine, rendered: config.logRequests ? logLine : undefined });
  const publicBaseUrl = new PublicBaseUrl(config.baseUrl, config.host, config.port);
  const readiness = new Readiness(async () => pool.stats().hosts > 0);
  const app = createApp({ config, catalog, storage, pipeline, metrics, publicBaseUrl, readiness }, { logger: options.logger });
  logHostOutput = (pid, text) => app.log.warn({ sandboxHost: pid }, text.trimEnd());

  try {
    const leftovers = await storage.removeInterruptedWrites?.();
    if (leftovers) app.log.warn(`removed ${leftovers} staging folder(s) left by interrupted publishes`);
    await catalog.refresh();
  } catch (error) {
    // Storage that cannot be read must end the start, not leave the sandbox hosts running.
    await pool.close();
    await storage.close?.();
    throw error;
  }
  const stopPolling =
    config.pollIntervalSeconds > 0 ? pollStorage(catalog, config.pollIntervalSeconds * 1000, (error) => app.log.error(error)) : undefined;

  let closed: Promise<void> | undefined;
  // Once: draining ends by closing, and whoever owns the registry may close it again.
  const close = () =>
    (closed ??= (async () => {
      readiness.drain();
      stopPolling?.();
      // Requests under way end within their time limit; a connection still open after that carries
      // none (a client that connected and never sent one) and would hold the close for good.
      const cutOff = setTimeout(() => app.server.closeAllConnections(), config.limits.executionTimeoutMs + CLOSE_MARGIN_MS);
      await app.close();
      clearTimeout(cutOff);
      await pool.close();
      await storage.close?.();
    })());
  return {
    app,
    catalog,
    storage,
    pool,
    metrics,
    async listen() {
      await app.listen({ port: config.port, host: config.host });
      const { port } = app.server.address() as AddressInfo;
      publicBaseUrl.listeningOn(config.host, port);
      return listenUrl(config.host, port);
    },
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
